package dev.mnemos.injection.step;

import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.States;
import dev.mnemos.injection.TestInjectionConfig;
import dev.mnemos.session.SessionState;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class RollingSummaryTest {

    private static final InjectionConfig MODEL = new TestInjectionConfig(1000, Duration.ofMillis(50),
            InjectionConfig.SummaryMode.MODEL);
    private final List<String> seen = new ArrayList<>();
    private final SessionState fourPlans = States.state("g", List.of(),
            IntStream.rangeClosed(1, 4).mapToObj(i -> States.plan(i, "plan " + i)).toList(), "old summary");

    @Test
    void modelWritesTheFoldWhenOneIsConfigured() {
        RollingSummary summary = new RollingSummary(MODEL, true, (current, plans, max) -> {
            seen.add(current + "|" + plans);
            return "  model summary  ";
        });
        SummaryFolder.Fold fold = summary.fold(fourPlans).orElseThrow();
        assertThat(fold.summary()).isEqualTo("model summary");
        assertThat(fold.foldedThrough()).isEqualTo(2);
        assertThat(seen).singleElement().asString().startsWith("old summary|plan v1\nplan 1").contains("plan v2\nplan 2")
                .doesNotContain("plan v3");
    }

    @Test
    void failingModelFallsBackToTheDeterministicFold() {
        RollingSummary summary = new RollingSummary(MODEL, true, (current, plans, max) -> {
            throw new IllegalStateException("timeout");
        });
        assertThat(summary.fold(fourPlans).orElseThrow().summary()).isEqualTo("old summary\nplan v1: plan 1\nplan v2: plan 2");
    }

    @Test
    void blankModelAnswerFallsBackToTheDeterministicFold() {
        RollingSummary summary = new RollingSummary(MODEL, true, (current, plans, max) -> " ");
        assertThat(summary.fold(fourPlans).orElseThrow().summary()).startsWith("old summary\nplan v1");
    }

    @Test
    void withoutAConfiguredModelTheModelIsNeverCalled() {
        RollingSummary summary = new RollingSummary(MODEL, false, (current, plans, max) -> {
            seen.add("called");
            return "x";
        });
        assertThat(summary.fold(fourPlans)).isPresent();
        assertThat(seen).isEmpty();
    }

    @Test
    void nothingDueMeansNoModelCall() {
        RollingSummary summary = new RollingSummary(MODEL, true, (current, plans, max) -> {
            seen.add("called");
            return "x";
        });
        assertThat(summary.fold(States.state("g", List.of(), List.of(States.plan(1, "p")), null))).isEmpty();
        assertThat(seen).isEmpty();
    }
}

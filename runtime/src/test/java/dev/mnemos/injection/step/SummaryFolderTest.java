package dev.mnemos.injection.step;

import dev.mnemos.injection.States;
import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionState;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class SummaryFolderTest {

    private static List<PlanVersion> plans(int n) {
        return IntStream.rangeClosed(1, n).mapToObj(i -> States.plan(i, "plan " + i + " first line\nmore")).toList();
    }

    @Test
    void plansOutsideTheWindowAreFoldedOnceByTheirFirstLine() {
        SessionState s = States.state("g", List.of(), plans(4), "earlier");
        SummaryFolder.Fold fold = SummaryFolder.fold(s, 2, 4000).orElseThrow();
        assertThat(fold.summary()).isEqualTo("earlier\nplan v1: plan 1 first line\nplan v2: plan 2 first line");
        assertThat(fold.foldedThrough()).isEqualTo(2);

        SessionState folded = States.state("g", List.of(), plans(4), fold.summary(),
                Map.of(SummaryFolder.FOLDED_KEY, "2"), List.of());
        assertThat(SummaryFolder.fold(folded, 2, 4000)).isEmpty();
    }

    @Test
    void nothingToFoldWhileAllPlansAreShown() {
        assertThat(SummaryFolder.fold(States.state("g", List.of(), plans(2), null), 2, 4000)).isEmpty();
    }

    @Test
    void summaryKeepsItsNewestLinesWithinTheLimit() {
        SessionState s = States.state("g", List.of(), plans(300), null);
        SummaryFolder.Fold fold = SummaryFolder.fold(s, 2, 500).orElseThrow();
        assertThat(fold.summary().length()).isLessThanOrEqualTo(500);
        assertThat(fold.summary()).endsWith("plan v298: plan 298 first line").startsWith("…plan v");
    }
}

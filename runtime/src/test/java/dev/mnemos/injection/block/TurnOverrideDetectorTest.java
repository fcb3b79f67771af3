package dev.mnemos.injection.block;

import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.TurnOverride;
import dev.mnemos.session.Scope;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TurnOverrideDetectorTest {

    private static final ProfileLine ENGLISH = new ProfileLine("f1", "LANGUAGE", "output.language", "Always answer in English",
            0.9);
    private static final ProfileLine TABLES = new ProfileLine("f2", "FORMAT", "output.format", "prefers a table", 0.8);

    @Test
    void messageAskingForAnotherLanguageOverridesTheProfileLanguage() {
        assertThat(TurnOverrideDetector.detect("this time please answer in French", List.of(ENGLISH, TABLES)))
                .containsExactly(new TurnOverride("output.language", "French", "Always answer in English"));
    }

    @Test
    void chineseMessageAskingForChineseOverridesEnglish() {
        assertThat(TurnOverrideDetector.detect("这次用中文回答", List.of(ENGLISH)))
                .extracting(TurnOverride::value).containsExactly("Chinese");
    }

    @Test
    void messageAgreeingWithTheProfileOrSilentOnItOverridesNothing() {
        assertThat(TurnOverrideDetector.detect("answer in English please", List.of(ENGLISH))).isEmpty();
        assertThat(TurnOverrideDetector.detect("plan my trip", List.of(ENGLISH, TABLES))).isEmpty();
        assertThat(TurnOverrideDetector.detect(null, List.of(ENGLISH))).isEmpty();
    }

    @Test
    void factsWithoutAKnownSlotAreNeverOverridden() {
        ProfileLine free = new ProfileLine("f3", "FACT", null, "speaks English", 0.9);
        assertThat(TurnOverrideDetector.detect("in French", List.of(free))).isEmpty();
    }

    @Test
    void formatOverrideIsDetected() {
        assertThat(TurnOverrideDetector.detect("give me bullet points instead", List.of(TABLES)))
                .extracting(TurnOverride::slot, TurnOverride::value)
                .containsExactly(Tuple.tuple("output.format", "bullet list"));
    }

    @Test
    void overrideIsRecordedAsAnExplicitTaskScopedObservation() {
        var observation = new TurnOverride("output.language", "French", "English").observation("in French");
        assertThat(observation.id()).isEqualTo("turn-override.output.language");
        assertThat(observation.scope()).isEqualTo(Scope.TASK);
        assertThat(observation.explicit()).isTrue();
        assertThat(observation.slot()).isEqualTo("output.language");
    }
}

package dev.mnemos.injection;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ToolRunTest {

    @Test
    void longValueIsCutToTheLimitWithTheMarker() {
        ToolRun run = ToolRun.of("t", "x".repeat(5_000), "short", null, 2_500);

        assertThat(run.arguments()).hasSize(ToolRun.MAX_CHARS).endsWith(ToolRun.CUT);
        assertThat(run.result()).isEqualTo("short");
        assertThat(run.durationMicros()).isEqualTo(2);
    }

    @Test
    void cutNeverSplitsASurrogatePair() {
        int end = ToolRun.MAX_CHARS - ToolRun.CUT.length();
        String text = "a".repeat(end - 1) + "😀" + "b".repeat(100);

        String cut = ToolRun.bounded(text);

        assertThat(cut).isEqualTo("a".repeat(end - 1) + ToolRun.CUT);
    }

    @Test
    void nulAndUnpairedSurrogatesBecomeReplacementCharacters() {
        assertThat(ToolRun.bounded("a\0b\uD800c😀")).isEqualTo("a\uFFFDb\uFFFDc😀");
        assertThat(ToolRun.bounded(null)).isNull();
    }
}

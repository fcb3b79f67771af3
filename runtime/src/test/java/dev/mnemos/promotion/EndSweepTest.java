package dev.mnemos.promotion;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class EndSweepTest {

    @Test
    void theFirstSweepWaitsUntilAfterTheStart() {
        assertThat(EndSweep.firstSweep(Duration.ofMinutes(5))).isEqualTo(EndSweep.FIRST_SWEEP)
                .isGreaterThanOrEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void aShorterIntervalBringsTheFirstSweepForward() {
        assertThat(EndSweep.firstSweep(Duration.ofMillis(300))).isEqualTo(Duration.ofMillis(300));
    }
}

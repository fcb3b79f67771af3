package dev.mnemos.server.api;

import io.quarkus.runtime.LaunchMode;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SecurityStartupCheckTest {

    static Config config(Map<String, String> values) {
        return new SmallRyeConfigBuilder().withDefaultValues(values).build();
    }

    @Test
    void productionWithoutVerificationKeyRefusesToStart() {
        assertThatThrownBy(() -> SecurityStartupCheck.requireKey(LaunchMode.NORMAL, config(Map.of())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("mp.jwt.verify.publickey.location");
    }

    @Test
    void productionWithKeyStartsAndDevOrTestNeverBlocks() {
        assertThatCode(() -> SecurityStartupCheck.requireKey(LaunchMode.NORMAL,
                config(Map.of("mp.jwt.verify.publickey.location", "/keys/pub.pem")))).doesNotThrowAnyException();
        assertThatCode(() -> SecurityStartupCheck.requireKey(LaunchMode.DEVELOPMENT, config(Map.of())))
                .doesNotThrowAnyException();
        assertThatCode(() -> SecurityStartupCheck.requireKey(LaunchMode.TEST, config(Map.of())))
                .doesNotThrowAnyException();
    }
}

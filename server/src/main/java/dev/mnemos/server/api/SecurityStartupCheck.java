package dev.mnemos.server.api;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.Config;

import java.util.List;

/** Refuses to start the production profile without a token verification key. */
public class SecurityStartupCheck {

    static final List<String> KEY_PROPERTIES = List.of(
            "mp.jwt.verify.publickey.location", "mp.jwt.verify.publickey", "mp.jwt.decrypt.key.location");

    void onStart(@Observes StartupEvent event, Config config) {
        requireKey(LaunchMode.current(), config);
    }

    /** @throws IllegalStateException in production mode when no verification key is configured */
    static void requireKey(LaunchMode mode, Config config) {
        if (mode != LaunchMode.NORMAL) {
            return;
        }
        boolean configured = KEY_PROPERTIES.stream()
                .anyMatch(key -> config.getOptionalValue(key, String.class).filter(v -> !v.isBlank()).isPresent());
        if (!configured) {
            throw new IllegalStateException("Mnemos refuses to start without a JWT verification key: set "
                    + "mp.jwt.verify.publickey.location (env MP_JWT_VERIFY_PUBLICKEY_LOCATION)");
        }
    }
}

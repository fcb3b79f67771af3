package dev.mnemos.server.api;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * Small session limits, so a test reaches each in a few requests: a session's state capped at 64 KiB, a user's
 * sessions at 192 KiB ({@link SessionByteLimitsTest}), and 5 live sessions per user ({@link IdempotentWritesTest}).
 * One profile for both classes, so the server starts once for them; neither test comes near the other's limit (each
 * user's steps of {@code IdempotentWritesTest} are a few hundred bytes, and {@code SessionByteLimitsTest} keeps two
 * sessions live).
 */
public class SmallSessionLimits implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.mnemos.session.max-session-bytes", "65536",
                "quarkus.mnemos.session.max-user-bytes", "196608",
                "quarkus.mnemos.session.max-live-per-user", "5");
    }
}

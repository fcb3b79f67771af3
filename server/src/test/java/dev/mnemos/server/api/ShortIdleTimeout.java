package dev.mnemos.server.api;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/** A one-second idle timeout, so a test sees a stalled connection closed without waiting the production 30 s. */
public class ShortIdleTimeout implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.http.idle-timeout", "1s");
    }
}

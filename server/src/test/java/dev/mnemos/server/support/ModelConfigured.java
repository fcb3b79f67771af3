package dev.mnemos.server.support;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/**
 * A configured (non-offline) model, so framework paths call it. Nothing listens at the base URL:
 * {@link ScriptedChatModel} replaces the real client in every test.
 */
public class ModelConfigured implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("mnemos.llm.provider", "OPENAI", "mnemos.llm.base-url", "http://127.0.0.1:1",
                "quarkus.mnemos.llm.enabled", "true");
    }
}

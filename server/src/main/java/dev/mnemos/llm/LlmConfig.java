package dev.mnemos.llm;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * Which chat model Mnemos and its agents talk to. With {@code OFFLINE} (the default) no network is
 * used: framework features take their deterministic paths and agents answer through
 * {@link OfflineChatModel}. With {@code OPENAI} any OpenAI-compatible endpoint is used (OpenAI,
 * vLLM, LM Studio, or Ollama's {@code /v1} API).
 */
@ConfigMapping(prefix = "mnemos.llm")
public interface LlmConfig {

    enum Provider { OFFLINE, OPENAI }

    /** OFFLINE or OPENAI. */
    @WithDefault("OFFLINE")
    Provider provider();

    /** Base URL of the OpenAI-compatible API, for example {@code http://localhost:11434/v1}. */
    Optional<String> baseUrl();

    /** API key sent as a bearer token; Ollama accepts any value. */
    @WithDefault("none")
    String apiKey();

    /** Model name passed to the endpoint. */
    @WithDefault("gpt-4o-mini")
    String modelName();

    /** Sampling temperature; 0 keeps extraction and reconcile repeatable. */
    @WithDefault("0")
    double temperature();

    /** Longest wait for one model answer. */
    @WithDefault("60s")
    Duration timeout();

    /** Most characters of input sent to any single model call; longer input is cut. */
    @WithDefault("50000")
    int maxInputChars();

    default boolean offline() {
        return provider() == Provider.OFFLINE;
    }
}

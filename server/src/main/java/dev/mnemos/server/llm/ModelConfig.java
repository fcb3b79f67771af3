package dev.mnemos.server.llm;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * Which chat model the Mnemos server and its agent talk to. With {@code OFFLINE} (the default) no
 * network is used: the agent answers through the deterministic offline model. With {@code OPENAI}
 * any OpenAI-compatible endpoint is used (OpenAI, vLLM, LM Studio, or Ollama's {@code /v1} API).
 */
@ConfigMapping(prefix = "mnemos.llm")
public interface ModelConfig {

    enum Provider {
        OFFLINE,
        OPENAI
    }

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

    default boolean offline() {
        return provider() == Provider.OFFLINE;
    }
}

package dev.mnemos.llm;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * Whether and how Mnemos asks a chat model for fact extraction, reconcile and session summaries.
 * Mnemos never configures a model of its own: it uses the application's {@code ChatModel} (the
 * default one, or the named one). Without a model, or with {@code enabled=false}, every feature
 * takes its deterministic path.
 */
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
@ConfigMapping(prefix = "quarkus.mnemos.llm")
public interface LlmConfig {

    /** Use the application's chat model for extraction, reconcile and summaries when it has one. */
    @WithDefault("true")
    boolean enabled();

    /** Name of a Quarkus LangChain4j named model ({@code @ModelName}) to use instead of the default one. */
    Optional<String> modelName();

    /** Longest wait for one model answer; a slower answer counts as no answer and the deterministic path is taken. */
    @WithDefault("90s")
    Duration timeout();

    /** Most characters of input sent to any single model call; longer input is cut, keeping the newest text. */
    @WithDefault("50000")
    int maxInputChars();
}

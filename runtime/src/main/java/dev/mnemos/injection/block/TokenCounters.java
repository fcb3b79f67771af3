package dev.mnemos.injection.block;

import dev.langchain4j.model.TokenCountEstimator;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.TokenCounter;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/** Chooses the {@link TokenCounter} of the memory block once, at start. */
@ApplicationScoped
class TokenCounters {

    private static final Logger LOG = Logger.getLogger(TokenCounters.class);

    /**
     * Counts a word at start, so the tokenizer is built then and not in the first step: jtokkit reads
     * its vocabularies when first used (about 0.4 s of the first step in the benchmark's profile).
     */
    void warm(@Observes StartupEvent start, TokenCounter counter) {
        counter.count("Mnemos");
    }

    @Produces
    @Singleton
    TokenCounter tokenCounter(Instance<TokenCountEstimator> tokenizers, InjectionConfig config) {
        if (tokenizers.isResolvable()) {
            TokenCountEstimator tokenizer = tokenizers.get();
            LOG.infof("memory blocks are counted with the application's tokenizer (%s)",
                    tokenizer.getClass().getName());
            return TokenCounter.remembering(TokenCounter.of(tokenizer), config.tokenCountCacheChars());
        }
        LOG.info("memory blocks are counted with Mnemos' token estimate (no TokenCountEstimator bean)");
        return TokenCounter.estimate();
    }
}

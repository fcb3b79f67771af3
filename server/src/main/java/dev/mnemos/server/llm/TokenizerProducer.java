package dev.mnemos.server.llm;

import dev.langchain4j.model.TokenCountEstimator;
import dev.langchain4j.model.openai.OpenAiChatModelName;
import dev.langchain4j.model.openai.OpenAiTokenCountEstimator;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * The tokenizer Mnemos counts memory blocks with: jtokkit's encoding of the configured model
 * ({@code mnemos.llm.model-name}), or of gpt-4o-mini (o200k_base) for a model jtokkit does not know (Ollama
 * models, the offline model): a real BPE count, close for most current models, instead of an estimate.
 */
@ApplicationScoped
class TokenizerProducer {

    private static final Logger LOG = Logger.getLogger(TokenizerProducer.class);

    @Produces
    @Singleton
    TokenCountEstimator tokenizer(ModelConfig config) {
        try {
            return new OpenAiTokenCountEstimator(config.modelName());
        } catch (RuntimeException unknown) {
            LOG.debugf("jtokkit does not know model %s; counting with gpt-4o-mini's encoding", config.modelName());
            return new OpenAiTokenCountEstimator(OpenAiChatModelName.GPT_4_O_MINI);
        }
    }
}

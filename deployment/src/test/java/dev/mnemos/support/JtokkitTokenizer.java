package dev.mnemos.support;

import dev.langchain4j.model.TokenCountEstimator;
import dev.langchain4j.model.openai.OpenAiChatModelName;
import dev.langchain4j.model.openai.OpenAiTokenCountEstimator;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The application's tokenizer, as the server has one: jtokkit's encoding of gpt-4o-mini (o200k_base). */
@ApplicationScoped
public class JtokkitTokenizer {

    @Produces
    @Singleton
    TokenCountEstimator tokenizer() {
        return new OpenAiTokenCountEstimator(OpenAiChatModelName.GPT_4_O_MINI);
    }
}

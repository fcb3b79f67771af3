package dev.mnemos.server.llm;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.mnemos.agent.offline.OfflineChatModel;
import dev.mnemos.llm.MnemosModelSupplier;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import org.jboss.logging.Logger;

/**
 * The application's default {@link ChatModel}: an OpenAI-compatible client when
 * {@code mnemos.llm.provider=OPENAI}, the {@link OfflineChatModel} otherwise. Tests replace it with
 * an {@code @Alternative} bean.
 */
@ApplicationScoped
public class ChatModelProducer {

    private static final Logger LOG = Logger.getLogger(ChatModelProducer.class);

    /** Unremovable: AI services look the model up programmatically ({@link MnemosModelSupplier}). */
    @Produces
    @ApplicationScoped
    @Unremovable
    ChatModel chatModel(ModelConfig config, OfflineChatModel offline) {
        if (config.offline()) {
            LOG.info(
                    "Mnemos uses its deterministic OFFLINE model (set mnemos.llm.provider=OPENAI and mnemos.llm.base-url for a real one)");
            return offline;
        }
        return openAiCompatible(config);
    }

    /** The OpenAI-compatible client configured by {@code mnemos.llm.*} (provider OPENAI). */
    public static ChatModel openAiCompatible(ModelConfig config) {
        String baseUrl = config.baseUrl().orElseThrow(() -> new IllegalStateException(
                "mnemos.llm.provider=OPENAI needs mnemos.llm.base-url"));
        LOG.infof("Mnemos uses the OpenAI-compatible model '%s' at %s", config.modelName(), baseUrl);
        return OpenAiChatModel.builder().baseUrl(baseUrl).apiKey(config.apiKey()).modelName(config.modelName())
                .temperature(config.temperature()).timeout(config.timeout()).build();
    }
}

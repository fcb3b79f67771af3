package dev.mnemos.llm;

import dev.langchain4j.model.chat.ChatModel;
import io.quarkus.arc.Arc;

import java.util.function.Supplier;

/**
 * Gives AI services the application's {@link ChatModel} bean. Quarkus LangChain4j 1.7.4 without a
 * provider extension does not wire a user-supplied ChatModel bean into {@code @RegisterAiService},
 * so every Mnemos AI service names this supplier:
 * {@code @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)}.
 */
public class MnemosModelSupplier implements Supplier<ChatModel> {

    @Override
    public ChatModel get() {
        return Arc.container().instance(ChatModel.class).get();
    }
}

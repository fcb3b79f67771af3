package dev.mnemos.llm;

import dev.langchain4j.model.chat.ChatModel;
import io.quarkiverse.langchain4j.ModelName;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableInstance;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Gives AI services the application's {@link ChatModel}: the named model when
 * {@code quarkus.mnemos.llm.model-name} is set, the default one otherwise. Quarkus LangChain4j 1.7.4
 * without a provider extension does not wire an application's own ChatModel bean into
 * {@code @RegisterAiService}, so an application's AI services may name this supplier:
 * {@code @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)}; Mnemos' own
 * ({@link MnemosAiServices}) are built with the model it finds.
 */
public class MnemosModelSupplier implements Supplier<ChatModel> {

    static final String MODEL_NAME = "quarkus.mnemos.llm.model-name";

    @Override
    public ChatModel get() {
        return find().orElseThrow(() -> new IllegalStateException(
                "no single ChatModel bean" + modelName().map(n -> " named '" + n + "'").orElse("") + " in this application"));
    }

    /** The model, or empty when the application has none (or several without a qualifier to choose). */
    public static Optional<ChatModel> find() {
        InjectableInstance<ChatModel> models = modelName()
                .map(name -> Arc.container().select(ChatModel.class, ModelName.Literal.of(name)))
                .orElseGet(() -> Arc.container().select(ChatModel.class));
        return models.isResolvable() ? Optional.of(models.get()) : Optional.empty();
    }

    private static Optional<String> modelName() {
        return ConfigProvider.getConfig().getOptionalValue(MODEL_NAME, String.class).filter(n -> !n.isBlank());
    }
}

package dev.mnemos.llm;

import dev.langchain4j.model.chat.ChatModel;
import io.quarkiverse.langchain4j.ModelName;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableInstance;
import jakarta.enterprise.inject.Any;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Gives AI services the application's {@link ChatModel}: the named model when
 * {@code quarkus.mnemos.llm.model-name} is set, the default one otherwise. Quarkus LangChain4j without a provider
 * extension does not wire an application's own ChatModel bean into {@code @RegisterAiService}, so an application's AI
 * services may name this supplier: {@code @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)};
 * Mnemos' own ({@link MnemosAiServices}) are built with the model it finds. With a provider extension
 * ({@code quarkus-langchain4j-openai}, …) naming it works as well: the build asks the provider for the model it would
 * have made for a service without a supplier. When a service names it and no model is found, the start fails
 * ({@link ModelSupplierRecorder}).
 */
public class MnemosModelSupplier implements Supplier<ChatModel> {

    static final String MODEL_NAME = "quarkus.mnemos.llm.model-name";

    @Override
    public ChatModel get() {
        return find().orElseThrow(() -> new IllegalStateException(noModel(List.of())));
    }

    /** Why no model was found, and what to change: names {@code services}, the AI services that need one. */
    static String noModel(List<String> services) {
        String who = services.isEmpty() ? "MnemosModelSupplier"
                : "@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class) on " + String.join(", ", services);
        Optional<String> name = modelName();
        if (name.isPresent()) {
            return who + " finds no ChatModel bean named '" + name.get() + "' (" + MODEL_NAME + "): configure that"
                    + " named model (quarkus.langchain4j." + name.get() + ".chat-model.provider and its provider's keys),"
                    + " produce a ChatModel bean with @ModelName(\"" + name.get() + "\"), or unset " + MODEL_NAME
                    + " to use the default model";
        }
        int models = Arc.container().beanManager().getBeans(ChatModel.class, Any.Literal.INSTANCE).size();
        if (models > 1) {
            return who + " finds " + models + " ChatModel beans and cannot choose: set " + MODEL_NAME + " to the"
                    + " @ModelName of the one to use, or make one of them the default";
        }
        return who + " finds no ChatModel bean in this application: add a model provider extension (such as"
                + " quarkus-langchain4j-openai, with its configuration) or produce a ChatModel bean (@Produces"
                + " @ApplicationScoped ChatModel)";
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

package dev.mnemos.deployment;

import dev.langchain4j.model.chat.ChatModel;
import dev.mnemos.llm.MnemosModelSupplier;
import dev.mnemos.llm.ModelSupplierRecorder;
import io.quarkiverse.langchain4j.deployment.RequestChatModelBeanBuildItem;
import io.quarkiverse.langchain4j.deployment.items.ChatModelProviderCandidateBuildItem;
import io.quarkiverse.langchain4j.runtime.NamedConfigUtil;
import io.quarkus.arc.deployment.BeanContainerBuildItem;
import io.quarkus.arc.deployment.BeanDiscoveryFinishedBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

import java.util.List;

/**
 * What an AI service that names {@link MnemosModelSupplier} needs: a model to find.
 * <ul>
 * <li>Quarkus LangChain4j makes a provider extension's model ({@code quarkus-langchain4j-openai}, …) only for the AI
 * services and injection points that ask for it, and a service that names a supplier does not: with a provider and no
 * model bean of the application's own, the build asks the provider for the model (the default one, or the one
 * {@code quarkus.mnemos.llm.model-name} names), so the README's service works as written with a provider.</li>
 * <li>The supplier looks the model up programmatically, so ChatModel beans are kept.</li>
 * <li>At start-up, a supplier that finds no model fails the start, naming the services and what to change.</li>
 * </ul>
 */
class ModelSupplierProcessor {

    static final DotName REGISTER_AI_SERVICE = DotName.createSimple("io.quarkiverse.langchain4j.RegisterAiService");
    static final DotName SUPPLIER = DotName.createSimple(MnemosModelSupplier.class);
    static final DotName CHAT_MODEL = DotName.createSimple(ChatModel.class);

    @BuildStep
    void requestModel(CombinedIndexBuildItem index, List<ChatModelProviderCandidateBuildItem> providers,
            BeanDiscoveryFinishedBuildItem beans, BuildProducer<RequestChatModelBeanBuildItem> requests,
            BuildProducer<UnremovableBeanBuildItem> unremovable) {
        if (services(index.getIndex()).isEmpty()) {
            return;
        }
        unremovable.produce(UnremovableBeanBuildItem.beanTypes(CHAT_MODEL));
        if (providers.isEmpty() || !beans.beanStream().withBeanType(CHAT_MODEL).isEmpty()) {
            return; // no provider to ask, or the application makes its models itself
        }
        requests.produce(new RequestChatModelBeanBuildItem(ConfigProvider.getConfig()
                .getOptionalValue("quarkus.mnemos.llm.model-name", String.class).filter(n -> !n.isBlank())
                .orElse(NamedConfigUtil.DEFAULT_NAME)));
    }

    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    void requireModel(CombinedIndexBuildItem index, BeanContainerBuildItem container, ModelSupplierRecorder recorder) {
        List<String> services = services(index.getIndex());
        if (!services.isEmpty()) {
            recorder.requireModel(services);
        }
    }

    /** The {@code @RegisterAiService} interfaces whose {@code chatLanguageModelSupplier} is Mnemos' supplier. */
    static List<String> services(IndexView index) {
        return index.getAnnotations(REGISTER_AI_SERVICE).stream()
                .filter(a -> a.target().kind() == AnnotationTarget.Kind.CLASS)
                .filter(ModelSupplierProcessor::namesSupplier)
                .map(a -> a.target().asClass().name().toString()).sorted().toList();
    }

    private static boolean namesSupplier(AnnotationInstance service) {
        AnnotationValue supplier = service.value("chatLanguageModelSupplier");
        return supplier != null && SUPPLIER.equals(supplier.asClass().name());
    }
}

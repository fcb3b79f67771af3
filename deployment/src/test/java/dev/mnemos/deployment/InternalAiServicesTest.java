package dev.mnemos.deployment;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.MemoryId;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.ExtractionAi;
import dev.mnemos.llm.MnemosAiServices;
import dev.mnemos.llm.MnemosModelSupplier;
import dev.mnemos.llm.ReconcileAi;
import dev.mnemos.llm.SessionSummaryAi;
import io.quarkiverse.langchain4j.RegisterAiService;
import io.quarkus.builder.BuildChainBuilder;
import io.quarkus.builder.item.BuildItem;
import io.quarkus.builder.item.MultiBuildItem;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mnemos' own AI services are not declarative AI services, the list Quarkus LangChain4j's Dev UI card shows as the
 * application's, while an application's own still is; and they still send their prompts as before.
 */
class InternalAiServicesTest {

    static final String LISTED = "mnemos.test.declarative-ai-services";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Assistant.class, RecordingChatModel.class))
            .withConfigurationResource("mnemos-test.properties")
            .addBuildChainCustomizer(recordDeclarativeServices());

    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    @ApplicationScoped
    interface Assistant {

        @SessionMemory(step = "advise")
        @dev.langchain4j.service.SystemMessage("You help.\n{inject:memory.block}")
        String advise(@MemoryId String sessionId, @dev.langchain4j.service.UserMessage String question);
    }

    @ConfigProperty(name = LISTED)
    String listed;
    @Inject
    ExtractionAi extraction;
    @Inject
    ReconcileAi reconcile;
    @Inject
    MnemosAiServices services;
    @Inject
    RecordingChatModel model;

    @Test
    void onlyTheApplicationsAiServiceIsDeclarative() {
        assertThat(List.of(listed.split(","))).contains(Assistant.class.getName()).doesNotContain(
                ExtractionAi.class.getName(), ReconcileAi.class.getName(), SessionSummaryAi.class.getName());
    }

    @Test
    void extractionSendsItsPromptAndTheRequest() {
        assertThat(extraction.extract("I keep bees")).isEqualTo("ok");
        ChatRequest sent = last();
        assertThat(system(sent)).startsWith("#prompt: fact-extraction").contains("{\"facts\": []}")
                .doesNotContain("{|");
        assertThat(user(sent)).isEqualTo("I keep bees");
    }

    @Test
    void reconcileSendsItsPrompt() {
        assertThat(reconcile.reconcile("{\"memories\": []}")).isEqualTo("ok");
        assertThat(system(last())).startsWith("#prompt: reconcile");
        assertThat(user(last())).isEqualTo("{\"memories\": []}");
    }

    @Test
    void summaryPromptNamesTheLength() {
        assertThat(services.summary(321).fold(SessionSummaryAi.request("", "plan v1\nGo by train"))).isEqualTo("ok");
        assertThat(system(last())).startsWith("#prompt: session-summary").contains("At most 321 characters.");
        assertThat(user(last())).isEqualTo(
                "Current summary:\n\n\nPlan versions to fold in, oldest first:\nplan v1\nGo by train");
        services.summary(654).fold("x");
        assertThat(system(last())).contains("At most 654 characters.");
    }

    private ChatRequest last() {
        List<ChatRequest> requests = model.requests();
        return requests.get(requests.size() - 1);
    }

    private static String system(ChatRequest request) {
        return request.messages().stream().filter(SystemMessage.class::isInstance).map(m -> ((SystemMessage) m).text())
                .findFirst().orElseThrow();
    }

    private static String user(ChatRequest request) {
        return request.messages().stream().filter(UserMessage.class::isInstance)
                .map(m -> ((UserMessage) m).singleText()).findFirst().orElseThrow();
    }

    /**
     * A build step that reads every {@code DeclarativeAiServiceBuildItem} and hands their interfaces to the application
     * as the configuration default {@value #LISTED}. Items are named and read reflectively: this class is loaded again
     * inside the application, apart from the build's class loader (see {@code DevTools}).
     */
    static Consumer<BuildChainBuilder> recordDeclarativeServices() {
        return chain -> {
            Class<? extends MultiBuildItem> declarative = item(
                    "io.quarkiverse.langchain4j.deployment.DeclarativeAiServiceBuildItem");
            Class<? extends MultiBuildItem> configDefault = item(
                    "io.quarkus.deployment.builditem.RunTimeConfigurationDefaultBuildItem");
            chain.addBuildStep(context -> {
                String names = String.join(",", context.consumeMulti(declarative).stream()
                        .map(InternalAiServicesTest::serviceName).toList());
                context.produce(newItem(configDefault, LISTED, names));
            }).consumes(declarative).produces(configDefault).build();
        };
    }

    private static String serviceName(Object item) {
        try {
            Object classInfo = item.getClass().getMethod("getServiceClassInfo").invoke(item);
            return classInfo.getClass().getMethod("name").invoke(classInfo).toString();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Class<? extends MultiBuildItem> item(String name) {
        try {
            return Class.forName(name, true, BuildItem.class.getClassLoader()).asSubclass(MultiBuildItem.class);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private static MultiBuildItem newItem(Class<? extends MultiBuildItem> item, String key, String value) {
        try {
            return item.getConstructor(String.class, String.class).newInstance(key, value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}

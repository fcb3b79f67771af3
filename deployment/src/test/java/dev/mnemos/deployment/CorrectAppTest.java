package dev.mnemos.deployment;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import io.quarkiverse.langchain4j.RegisterAiService;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.UUID;
import java.util.function.BiFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The positive control: an application that uses @SessionMemory as documented builds, and its step is injected and
 * written, for the annotation on a method ({@link Assistant}) and on the AI-service interface, where it applies to each
 * of its methods ({@link TypeLevelAssistant}).
 */
class CorrectAppTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Assistant.class, TypeLevelAssistant.class, RecordingChatModel.class))
            .withConfigurationResource("mnemos-test.properties");

    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    @ApplicationScoped
    interface Assistant {

        @SessionMemory(step = "advise")
        @dev.langchain4j.service.SystemMessage("You help.\n{inject:memory.block}")
        String advise(@MemoryId String sessionId, @UserMessage String question);
    }

    @SessionMemory
    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    @ApplicationScoped
    interface TypeLevelAssistant {

        @dev.langchain4j.service.SystemMessage("You help.\n{inject:memory.block}")
        String advise(@MemoryId String sessionId, @UserMessage String question);
    }

    @Inject
    Assistant assistant;
    @Inject
    TypeLevelAssistant typeLevel;
    @Inject
    RecordingChatModel model;
    @Inject
    SessionStore sessions;

    @Test
    void stepIsInjectedAndWrittenBack() {
        injectedAndWrittenBack(assistant::advise);
    }

    @Test
    void sessionMemoryOnTheInterfaceAppliesToItsMethods() {
        injectedAndWrittenBack(typeLevel::advise);
    }

    private void injectedAndWrittenBack(BiFunction<String, String, String> advise) {
        String userId = "u-" + UUID.randomUUID();
        String sessionId = sessions
                .create(NewSession.of(userId, SessionPatch.builder().goal("A trip to Kyoto").build()).by(userId))
                .sessionId();
        int before = model.requests().size();

        assertThat(advise.apply(sessionId, "When should I go?")).isEqualTo("ok");

        assertThat(model.requests()).hasSize(before + 1);
        String prompt = ((SystemMessage) model.requests().get(before).messages().get(0)).text();
        assertThat(prompt).startsWith("You help.").contains("A trip to Kyoto");
        assertThat(sessions.get(sessionId).collected()).containsEntry("answer.advise", "ok");
        sessions.delete(sessionId);
    }
}

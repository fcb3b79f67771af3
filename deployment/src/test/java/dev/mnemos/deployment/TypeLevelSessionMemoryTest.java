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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * @SessionMemory on the AI-service interface applies to each of its methods: the app builds, the step is injected and written.
 */
class TypeLevelSessionMemoryTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Assistant.class, RecordingChatModel.class))
            .withConfigurationResource("mnemos-test.properties");

    @SessionMemory
    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    @ApplicationScoped
    interface Assistant {

        @dev.langchain4j.service.SystemMessage("You help.\n{inject:memory.block}")
        String advise(@MemoryId String sessionId, @UserMessage String question);
    }

    @Inject
    Assistant assistant;
    @Inject
    RecordingChatModel model;
    @Inject
    SessionStore sessions;

    @Test
    void stepIsInjectedAndWrittenBack() {
        String userId = "u-" + UUID.randomUUID();
        String sessionId = sessions
                .create(NewSession.of(userId, SessionPatch.builder().goal("A trip to Kyoto").build()).by(userId))
                .sessionId();

        assertThat(assistant.advise(sessionId, "When should I go?")).isEqualTo("ok");

        String prompt = ((SystemMessage) model.requests().get(0).messages().get(0)).text();
        assertThat(prompt).startsWith("You help.").contains("A trip to Kyoto");
        assertThat(sessions.get(sessionId).collected()).containsEntry("answer.advise", "ok");
        sessions.delete(sessionId);
    }
}

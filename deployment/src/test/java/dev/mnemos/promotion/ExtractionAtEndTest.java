package dev.mnemos.promotion;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.MemoryId;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.llm.MnemosModelSupplier;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.support.ScriptedChatModel;
import io.quarkiverse.langchain4j.RegisterAiService;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End-of-task extraction with the default chat window ({@code per-service}): the user's messages are in the AI
 * service's own window, not the session's shared one, and extraction still reads them, so a standing statement said
 * only in the chat is promoted at the end. An end with nothing to extract from says so at INFO.
 */
class ExtractionAtEndTest {

    static final String STANDING = "Always answer in Chinese";
    static final String CHAT = "extract-chat-";
    static final String EMPTY = "extract-empty-";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Planner.class, ScriptedChatModel.class))
            .withConfigurationResource("mnemos-test.properties")
            .setLogRecordPredicate(r -> r.getLoggerName().equals(CandidateSources.class.getName()))
            .assertLogRecords(records -> assertThat(records).extracting(ExtractionAtEndTest::line)
                    .anyMatch(m -> m.startsWith("INFO session " + EMPTY)
                            && m.contains("no facts extracted, its chat windows hold no user message"))
                    .noneMatch(m -> m.contains(CHAT)));

    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    @ApplicationScoped
    interface Planner {

        @SessionMemory(step = "advise")
        @dev.langchain4j.service.SystemMessage("You plan trips.\n{inject:memory.block}")
        String advise(@MemoryId String sessionId, @dev.langchain4j.service.UserMessage String message);
    }

    @Inject
    Planner planner;
    @Inject
    ScriptedChatModel model;
    @Inject
    PromotionService promotion;
    @Inject
    SessionStore sessions;

    @BeforeEach
    void script() {
        model.reset();
        model.script(r -> extraction(r)
                ? "{\"facts\": [{\"text\": \"" + STANDING + "\", \"category\": \"LANGUAGE\", \"scope\": \"STABLE\"}]}"
                : "Kyoto in April.");
    }

    @Test
    void aStandingStatementSaidInTheChatIsPromotedAtTheEnd() {
        String session = CHAT + UUID.randomUUID();
        planner.advise(session, "From now on, always answer in Chinese. Where should I go in April?");

        PromotionReport report = promotion.end(session, "anonymous");

        ChatRequest extraction = model.requests().stream().filter(ExtractionAtEndTest::extraction).findFirst()
                .orElseThrow(() -> new AssertionError("no extraction request: the chat's user message was not found"));
        assertThat(((UserMessage) extraction.messages().get(extraction.messages().size() - 1)).singleText())
                .contains("From now on, always answer in Chinese.");
        assertThat(report.promoted()).extracting(DecisionEntry::text).contains(STANDING);
    }

    @Test
    void anEndWithoutChatSaysWhyNothingWasExtracted() {
        String user = "u-" + UUID.randomUUID();
        String session = EMPTY + UUID.randomUUID();
        sessions.createIfAbsent(session, NewSession.of(user, SessionPatch.builder().goal("a trip").build()).by(user));

        promotion.end(session, user);

        assertThat(model.requests()).noneMatch(ExtractionAtEndTest::extraction);
    }

    private static boolean extraction(ChatRequest request) {
        return request.messages().get(0) instanceof SystemMessage system
                && system.text().startsWith("#prompt: fact-extraction");
    }

    private static String line(LogRecord record) {
        Object[] parameters = record.getParameters();
        String message = parameters == null ? record.getMessage() : String.format(record.getMessage(), parameters);
        return record.getLevel() == Level.INFO ? "INFO " + message : record.getLevel() + " " + message;
    }
}

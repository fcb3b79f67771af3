package dev.mnemos.example;

import dev.langchain4j.data.message.SystemMessage;
import dev.mnemos.injection.ActingAs;
import dev.mnemos.promotion.PromotionReport;
import dev.mnemos.promotion.PromotionService;
import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.session.Constraint;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The example of docs/add-mnemos-to-your-ai-service.md, run as written. */
@QuarkusTest
class TripAssistantTest {

    @Inject
    TripAssistant assistant;
    @Inject
    SessionStore sessions;
    @Inject
    PromotionService promotion;
    @Inject
    ScriptedChatModel model;

    @BeforeEach
    void scriptedModel() {
        model.reset();
        model.script(request -> request.messages().get(0) instanceof SystemMessage s && s.text().contains("itinerary")
                ? "1. Day 1: Gion\n2. Day 2: Arashiyama\n3. Day 3: Nara"
                : "Go in April, for the blossoms.");
    }

    @Test
    void theAssistantReadsTheSessionBeforeEveryCallAndWritesEachStepBack() {
        // 1. A task starts: a session with what is known so far.
        String userId = "u-" + UUID.randomUUID();
        SessionState session = sessions.create(NewSession.of(userId, SessionPatch.builder()
                .goal("A 3-day trip to Kyoto")
                .addConstraint(new Constraint(null, "budget 5000 yuan this time", Scope.TASK, "user"))
                .addObservation(new Observation(null, "Always answer in Chinese", Observation.Kind.INSTRUCTION,
                        Scope.STABLE, "output.language", true, "from now on, always answer in Chinese"))
                .build()).by(userId));

        // 2. Call your AI service as usual: Mnemos injects the memory block and writes the step back.
        // a test calls the service off any request: it names the user it acts for, as a job would
        String advice = ActingAs.user(userId).call(() -> assistant.advise(session.sessionId(), "When should I go?"));
        String plan = ActingAs.user(userId).call(() -> assistant.itinerary(session.sessionId(), "Plan the days."));

        // 3. What was sent, and what the session holds now.
        String firstPrompt = ((SystemMessage) model.requests().get(0).messages().get(0)).text();
        assertThat(firstPrompt).contains("A 3-day trip to Kyoto", "budget 5000 yuan this time");
        SessionState after = sessions.get(session.sessionId());
        assertThat(after.version()).isEqualTo(3);
        assertThat(after.collected()).containsEntry("answer.advise", advice);
        assertThat(after.latestPlan().content()).isEqualTo(plan);
        assertThat(after.stepPointer().name()).isEqualTo("itinerary");

        // 4. The task ends: only the standing preference reaches the profile; the budget never does.
        PromotionReport report = promotion.end(session.sessionId(), userId);
        assertThat(report.promoted()).extracting(e -> e.text()).containsExactly("Always answer in Chinese");
    }
}

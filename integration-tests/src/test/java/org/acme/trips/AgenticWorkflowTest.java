package org.acme.trips;

import dev.langchain4j.agentic.scope.AgenticScope;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.injection.agentic.SessionAgenticScopeStore;
import dev.mnemos.session.Fork;
import dev.mnemos.session.Rollback;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Agentic workflows (quarkus-langchain4j-agentic) whose memory is a Mnemos session: each {@code @SessionMemory} agent
 * is one versioned step of the session the workflow's memory id names, the next agent's block showing what the previous
 * one wrote; the workflow's {@code AgenticScope} is kept in the session, so it is versioned, rolled back and forked
 * with it.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
class AgenticWorkflowTest {

    private static final String SCOPE_KEY = SessionAgenticScopeStore.key(TripBreakdown.class.getName());

    @Inject
    TripBreakdown breakdown;
    @Inject
    TripPolishLoop polishLoop;
    @Inject
    SessionStore sessions;
    @Inject
    StepTraceStore traces;

    @Test
    void eachAgentOfTheSequenceIsOneStepAndTheNextBlockShowsWhatThePreviousWrote() {
        String id = freshId();
        int before = OpenAiStub.bodies().size();

        String answer = breakdown.breakDown(id, "Three days in Porto, by train");

        assertThat(answer).isEqualTo(OpenAiStub.ANSWER);
        List<String> bodies = Bodies.since(before);
        assertThat(bodies).hasSize(2);
        assertThat(Bodies.system(bodies.get(0))).contains("session: \"" + id + "\"").doesNotContain("answer.draft");
        assertThat(Bodies.system(bodies.get(1))).contains("session: \"" + id + "\"", "answer.draft", OpenAiStub.ANSWER);
        List<SessionEvent> steps = steps(id);
        assertThat(steps).extracting(SessionEvent::note).containsExactly("step draft", "step review");
        SessionState state = sessions.get(id);
        assertThat(state.stepPointer().name()).isEqualTo("review");
        assertThat(state.collected()).containsEntry("answer.draft", OpenAiStub.ANSWER)
                .containsEntry("answer.review", OpenAiStub.ANSWER);
        StepTrace review = traces.find(id, steps.get(1).version()).orElseThrow();
        assertThat(review.step()).isEqualTo("review");
        assertThat(review.method()).isEqualTo("TripReviewer.review");
        assertThat(review.injected().block()).contains("answer.draft");
    }

    @Test
    void theWorkflowsScopeIsKeptInTheSessionOutOfTheBlockUntilEvicted() {
        String id = freshId();

        breakdown.breakDown(id, "A weekend in Lisbon");

        String scope = sessions.get(id).collected().get(SCOPE_KEY);
        assertThat(scope).contains(id, "\"draft\"", "\"review\"", OpenAiStub.ANSWER);
        assertThat(sessions.events(id, 1, 100)).extracting(SessionEvent::note)
                .contains("agentic scope " + TripBreakdown.class.getName());
        int before = OpenAiStub.bodies().size();
        polishLoop.polish(id, "keep it short");
        assertThat(Bodies.system(Bodies.since(before).get(0))).doesNotContain(SCOPE_KEY);

        assertThat(breakdown.evictAgenticScope(id)).isTrue();
        assertThat(sessions.get(id).collected()).doesNotContainKey(SCOPE_KEY).containsKey("answer.review");
    }

    @Test
    void aLoopAgentSharesTheSessionWithTheSequence() {
        String id = freshId();
        breakdown.breakDown(id, "Five days in the Algarve");
        int before = OpenAiStub.bodies().size();

        String polished = polishLoop.polish(id, "no car");

        assertThat(polished).isEqualTo(OpenAiStub.ANSWER);
        List<String> bodies = Bodies.since(before);
        assertThat(bodies).hasSizeGreaterThanOrEqualTo(2);
        assertThat(Bodies.system(bodies.get(0))).contains("step: 2 \"review\"", "answer.draft", "answer.review");
        assertThat(Bodies.system(bodies.get(1))).contains("step: 3 \"polish\"", "answer.polish");
        List<String> notes = steps(id).stream().map(SessionEvent::note).toList();
        assertThat(notes.subList(0, 2)).containsExactly("step draft", "step review");
        assertThat(notes.subList(2, notes.size())).hasSize(bodies.size()).containsOnly("step polish");
        assertThat(sessions.get(id).collected()).containsKeys(SCOPE_KEY,
                SessionAgenticScopeStore.key(TripPolishLoop.class.getName()));
    }

    @Test
    void aRolledBackWorkflowContinuesFromTheRolledBackScopeAndAForkFromItsOwn() {
        String id = freshId();
        breakdown.breakDown(id, "A week in the Azores");
        long afterDraft = scopeSavesAfter(id, "step draft");
        long latest = sessions.get(id).version();

        SessionState rolledBack = sessions.rollback(Rollback.of(id, afterDraft).expecting(latest).by("test"));
        SessionState fork = sessions.fork(Fork.of(id, latest).by("test"));

        assertThat(rolledBack.collected()).containsKey("answer.draft").doesNotContainKey("answer.review");
        AgenticScope scope = breakdown.getAgenticScope(id);
        assertThat(scope.readState("draft", "")).isEqualTo(OpenAiStub.ANSWER);
        assertThat(scope.readState("review", "")).isEmpty();
        AgenticScope forked = breakdown.getAgenticScope(fork.sessionId());
        assertThat(forked.memoryId()).isEqualTo(fork.sessionId());
        assertThat(forked.readState("review", "")).isEqualTo(OpenAiStub.ANSWER);

        breakdown.breakDown(fork.sessionId(), "A week in the Azores, by ferry");

        List<SessionEvent> forkSteps = steps(fork.sessionId());
        assertThat(forkSteps.subList(forkSteps.size() - 2, forkSteps.size())).extracting(SessionEvent::note)
                .containsExactly("step draft", "step review");
        assertThat(sessions.get(fork.sessionId()).collected().get(SCOPE_KEY)).contains("by ferry", fork.sessionId());
        assertThat(sessions.get(id).collected().get(SCOPE_KEY)).doesNotContain("by ferry");
        assertThat(sessions.get(id).version()).isEqualTo(rolledBack.version());
    }

    /** The steps among the session's events, oldest first. */
    private List<SessionEvent> steps(String id) {
        return sessions.events(id, 1, 100).stream().filter(e -> e.note() != null && e.note().startsWith("step "))
                .toList();
    }

    /** The version of the scope's save that followed the step noted {@code step}. */
    private long scopeSavesAfter(String id, String step) {
        List<SessionEvent> events = sessions.events(id, 1, 100);
        long stepVersion = events.stream().filter(e -> step.equals(e.note())).findFirst().orElseThrow().version();
        return events.stream().filter(e -> e.version() > stepVersion && e.note() != null
                && e.note().startsWith("agentic scope")).findFirst().orElseThrow().version();
    }

    private static String freshId() {
        return "trip-" + UUID.randomUUID();
    }
}

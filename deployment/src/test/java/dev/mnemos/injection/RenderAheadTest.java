package dev.mnemos.injection;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.step.AiMethod;
import dev.mnemos.injection.step.StepCycle;
import dev.mnemos.injection.step.SummaryFolder;
import dev.mnemos.llm.MnemosModelSupplier;
import dev.mnemos.session.Constraint;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkiverse.langchain4j.RegisterAiService;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Steps back to back against the real Redis, with render ahead (on by default): after a step wrote, the next
 * step's read is answered with the state that step wrote while the session is still at its version. Every
 * step must work on exactly the state the store holds (with the plans its fold needs), and see a change
 * another writer made in between.
 */
class RenderAheadTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties")
            .withApplicationRoot(
                    jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class));

    /**
     * A step whose writer changes most parts of a session, and records the state each step worked on. An AI
     * service, as the build requires of every {@code @SessionMemory} method; the test drives its cycle directly.
     */
    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    interface Steps {
        @SessionMemory(step = "work", writer = Recording.class)
        @SystemMessage("{inject:memory.block}")
        String work(@MemoryId String sessionId, @UserMessage String message);
    }

    /** The states the steps were given to write on, in order. */
    static final List<SessionState> BASES = new CopyOnWriteArrayList<>();

    public static class Recording implements StepWriter {
        @Override
        public SessionPatch patch(StepCall call) {
            BASES.add(call.state());
            int i = call.nextIndex();
            SessionPatch.Builder patch = SessionPatch.builder().stepPointer(i, call.step())
                    .putCollected("answer." + i % 4, call.result() + " (step " + i + ")");
            if (i % 5 == 0) {
                patch.addPlan("1. Kyoto, day " + i + "\n2. Nara", i % 2 == 0 ? 0.5 + i / 200.0 : null, null);
            }
            if (i % 7 == 0) {
                patch.addConstraint(new Constraint(null, "constraint of step " + i, Scope.TASK, "user"));
            }
            if (i % 6 == 0) {
                patch.addOpenQuestion("question of step " + i + "?");
            }
            if (i % 12 == 0) {
                patch.answerOpenQuestion("question of step " + (i - 6) + "?");
            }
            return patch.build();
        }
    }

    @Inject
    StepCycle cycle;
    @Inject
    SessionStore store;
    @Inject
    MeterRegistry meters;

    @Test
    void everyStepWorksOnTheStoredStateAndSeesAChangeMadeInBetween() throws Exception {
        AiMethod work = AiMethod.of(Steps.class.getMethod("work", String.class, String.class));
        String id = store.create(NewSession
                .of("ahead-" + SessionIds.newId(), SessionPatch.builder().goal("plan a trip to Kyoto").build()).by("test"))
                .sessionId();
        double foundBefore = found();
        List<SessionState> expected = new ArrayList<>();
        BASES.clear();
        for (int i = 1; i <= 80; i++) {
            if (i == 40) {
                // another writer (an HTTP step, another replica) changes the session between two steps
                store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("hotel", "a ryokan in Gion").build())
                        .ownedBy(store.get(id).userId()).noting("elsewhere").by("test"));
            }
            expected.add(SummaryFolder.loadForFold(store, id, 2)); // what a step's own read gives
            String answer = "answer " + i;
            cycle.run(work, new Object[] { id, "step " + i + ": what next?" }, () -> answer);
            Thread.sleep(50); // what an application does between two calls: the next block is rendered ahead meanwhile
        }

        assertThat(BASES).hasSize(80);
        for (int i = 0; i < 80; i++) {
            assertThat(BASES.get(i)).as("the state step %d worked on", i + 1).isEqualTo(expected.get(i));
        }
        assertThat(BASES.get(39).collected()).as("the change made in between").containsEntry("hotel", "a ryokan in Gion");
        assertThat(BASES.get(79).plans()).as("plans as a read gives them: the newest three").hasSize(3);
        SessionState stored = store.get(id);
        assertThat(stored.version()).isEqualTo(82); // created, 80 steps, the write in between
        assertThat(stored.constraints()).hasSize(11);
        // every step but the first and the one after the write in between can find its block rendered ahead (78);
        // on a loaded machine the render-ahead thread may miss a pause now and then
        assertThat(found() - foundBefore).isBetween(70.0, 78.0);
        store.delete(id);
    }

    private double found() {
        return meters.counter("mnemos.block.rendered.ahead", "outcome", "used").count();
    }

    @Test
    void theStoreAnswersAStateKnownAtTheCurrentVersionWithThatState() throws InterruptedException {
        String id = store.create(NewSession
                .of("ahead-" + SessionIds.newId(), SessionPatch.builder().goal("plan a trip to Nara").build()).by("test"))
                .sessionId();
        SessionState known = store.recent(id, 3);
        assertThat(store.recentIfChanged(id, 3, known)).as("nothing sent: the state known").isSameAs(known);

        store.apply(StepWrite.of(id, SessionPatch.builder().context("two adults").build()).ownedBy(known.userId())
                .noting("elsewhere").by("test"));
        SessionState changed = store.recentIfChanged(id, 3, known);
        assertThat(changed).as("a newer version is read").isNotSameAs(known);
        assertThat(changed.context()).isEqualTo("two adults");
        assertThat(changed).isEqualTo(store.recent(id, 3));

        store.delete(id);
        assertThatThrownBy(() -> store.recentIfChanged(id, 3, changed))
                .isInstanceOf(SessionNotFoundException.class);

        // a session deleted and started again under its id, up to the same version: not the state known
        Thread.sleep(2); // another creation time, to the millisecond
        SessionState again = store.createIfAbsent(id,
                NewSession.of(known.userId(), SessionPatch.builder().goal("another trip").build()).by("test")).orElseThrow();
        store.apply(StepWrite.of(id, SessionPatch.builder().context("one adult").build()).ownedBy(known.userId())
                .noting("again").by("test"));
        assertThat(again.version() + 1).isEqualTo(changed.version());
        SessionState reborn = store.recentIfChanged(id, 3, changed);
        assertThat(reborn).isNotSameAs(changed);
        assertThat(reborn.goal()).isEqualTo("another trip");
        store.delete(id);
    }
}

package dev.mnemos.injection.step;

import dev.mnemos.injection.ActingUser;
import dev.mnemos.injection.FakeSessionStore;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.MemoryContext;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.SessionMemoryUnavailableException;
import dev.mnemos.injection.SessionMixUpException;
import dev.mnemos.injection.States;
import dev.mnemos.injection.StepProfiles;
import dev.mnemos.injection.StepResults;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.injection.StepWriteConflictException;
import dev.mnemos.injection.TestInjectionConfig;
import dev.mnemos.injection.TokenCounter;
import dev.mnemos.injection.TripAi;
import dev.mnemos.session.Constraint;
import dev.mnemos.session.NoSessionArchive;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStoreUnavailableException;
import dev.mnemos.session.StepTraceEntry;
import dev.mnemos.tracing.MnemosSpans;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The step cycle with hand-written fakes: failure paths that are hard to provoke against real Redis. */
class StepCycleTest {

    private final FakeSessionStore store = new FakeSessionStore();
    private final MemoryContext memory = new MemoryContext();
    private final StepResults results = new StepResults();
    /** Every trace the step cycle made, whether or not its write was applied. */
    private final List<StepTrace> made = new ArrayList<>();
    private final AtomicInteger modelCalls = new AtomicInteger();
    private Optional<String> actingUser = Optional.empty();
    private AiMethod chat;
    private StepCycle cycle;

    @BeforeEach
    void setUp() throws Exception {
        chat = AiMethod.of(TripAi.class.getMethod("chat", String.class, String.class));
        store.put(States.state("goal", List.of(new Constraint("c1", "keep me", Scope.TASK, null)), List.of(), null));
        InjectionConfig config = new TestInjectionConfig();
        ActingUser acting = () -> actingUser.map(ActingUser.Actor::user).orElse(ActingUser.Actor.unrestricted("anonymous"));
        // the fake store keeps the entries of applied writes; each entry's content names the trace it was made from
        StepTraceStore traceStore = new StepTraceStore() {
            @Override
            public StepTraceEntry entry(StepTrace trace) {
                made.add(trace);
                return new StepTraceEntry(Integer.toString(made.size() - 1), 1);
            }

            @Override
            public Optional<StepTrace> find(String sessionId, long version) {
                return Optional.empty();
            }

            @Override
            public List<StepTrace> all(String sessionId) {
                return traces();
            }
        };
        cycle = new StepCycle(
                new StepLoader(store, new NoSessionArchive(),
                        StepProfiles.unguarded(userId -> ProfileSnapshot.missing()), config, acting,
                        TokenCounter.estimate()),
                new StepWriteBack(store, config, memory, new RollingSummary(config, false, (a, b, c) -> "unused"),
                        traceStore),
                memory,
                new InjectionMetrics(new SimpleMeterRegistry()), MnemosSpans.noop(), results);
    }

    /** The traces stored: those carried by applied writes. */
    private List<StepTrace> traces() {
        return store.traces.stream().map(e -> made.get(Integer.parseInt(e.json()))).toList();
    }

    private Object step() throws Exception {
        return cycle.run(chat, new Object[] { "s-1", "hello" }, () -> {
            modelCalls.incrementAndGet();
            return "answer";
        });
    }

    @Test
    void theStateAfterAStepIsRebuiltFromWhatItWroteWithoutARead() throws Exception {
        SessionState before = store.get("s-1");
        step();
        SessionState written = store.get("s-1");
        assertThat(written.version()).isEqualTo(before.version() + 1);
        assertThat(results.after(before)).contains(written);
        assertThat(results.after("s-1")).contains(written);
        assertThat(results.after(written)).as("not the version the step wrote on").isEmpty();
    }

    @Test
    void sessionStoreDownFailsFastWithoutCallingTheModel() {
        store.failure = new SessionStoreUnavailableException("Redis did not answer", null);
        assertThatThrownBy(this::step).isInstanceOf(SessionMemoryUnavailableException.class)
                .hasMessageContaining("s-1").hasMessageContaining("model was not called");
        assertThat(modelCalls).hasValue(0);
    }

    @Test
    void blockIsVisibleToTheTemplateDuringTheCallOnly() throws Exception {
        List<String> seen = new ArrayList<>();
        cycle.run(chat, new Object[] { "s-1", "hello" }, () -> {
            seen.add(memory.block());
            seen.add(memory.block("s-1"));
            seen.add(memory.block("s-other"));
            return "answer";
        });
        assertThat(seen.get(0)).contains("\"keep me\"").isEqualTo(seen.get(1));
        assertThat(seen.get(2)).isEmpty();
        assertThat(memory.block()).isEmpty();
    }

    @Test
    void aWriteBackWhoseAnswerTimedOutIsRetriedWithItsKeyAndAppliedOnce() throws Exception {
        AtomicInteger answersLost = new AtomicInteger();
        store.afterWrite = () -> {
            if (answersLost.getAndIncrement() == 0) {
                throw new TimeoutException("applied, answer lost");
            }
        };
        step();
        assertThat(store.written).as("the step was applied once").hasSize(1);
        assertThat(store.keys).as("under one internal key").hasSize(1);
        assertThat(store.get("s-1").version()).isEqualTo(8);
        assertThat(traces()).singleElement().satisfies(t -> assertThat(t.written().version()).isEqualTo(8));
    }

    @Test
    void lostCompareAndSetIsRetriedOnTheFreshStateAndKeepsTheOtherWrite() throws Exception {
        AtomicInteger writes = new AtomicInteger();
        store.beforeWrite = () -> {
            if (writes.getAndIncrement() == 0) {
                store.change("s-1", s -> withVersion(s, s.version() + 1, s.userId(), "added by another writer"));
            }
        };
        step();
        SessionState after = store.get("s-1");
        assertThat(after.version()).isEqualTo(9);
        assertThat(after.constraints()).extracting(Constraint::text).contains("keep me", "added by another writer");
        assertThat(after.collected()).containsEntry("answer.chat", "answer");
        assertThat(traces()).singleElement().satisfies(t -> {
            assertThat(t.read().sessionVersion()).isEqualTo(7);
            assertThat(t.written().basedOn()).isEqualTo(8);
            assertThat(t.written().retries()).isEqualTo(1);
        });
    }

    @Test
    void conflictsBeyondTheWaitFailClearlyAndWriteNothing() {
        store.beforeWrite = () -> store.change("s-1", s -> withVersion(s, s.version() + 1, s.userId(), null));
        assertThatThrownBy(this::step).isInstanceOf(StepWriteConflictException.class)
                .hasMessageContaining("read at version 7").hasMessageContaining("compare-and-set attempts");
        assertThat(store.written).isEmpty();
        assertThat(traces()).isEmpty();
    }

    @Test
    void writeBackToASessionThatChangedOwnerIsRefused() {
        AtomicInteger writes = new AtomicInteger();
        store.beforeWrite = () -> {
            if (writes.getAndIncrement() == 0) {
                store.change("s-1", s -> withVersion(s, s.version() + 1, "u-other", null));
            }
        };
        assertThatThrownBy(this::step).isInstanceOf(SessionMixUpException.class).hasMessageContaining("owner");
        assertThat(store.written).isEmpty();
    }

    @Test
    void ownerCheckedByTheStoreAtWriteTimeRefusesTheWriteBack() {
        store.beforeWrite = () -> store.change("s-1", s -> withVersion(s, s.version(), "u-other", null));
        assertThatThrownBy(this::step).isInstanceOf(SessionMixUpException.class).hasMessageContaining("u-1");
        assertThat(store.written).isEmpty();
    }

    @Test
    void anotherUsersSessionIsNotFoundAndTheModelIsNotCalled() {
        actingUser = Optional.of("u-mallory");
        assertThatThrownBy(this::step).isInstanceOf(SessionNotFoundException.class);
        assertThat(modelCalls).hasValue(0);
    }

    @Test
    void sessionOwnerMayRunTheStep() throws Exception {
        actingUser = Optional.of("u-1");
        assertThat(step()).isEqualTo("answer");
        assertThat(store.get("s-1").version()).isEqualTo(8);
    }

    @Test
    void writeForASessionOtherThanTheOneRunningOnThisThreadIsRefused() {
        SessionState loaded = store.get("s-1");
        assertThatThrownBy(() -> SessionGuard.checkWrite(loaded, "s-1", loaded, Optional.empty(), Optional.empty()))
                .isInstanceOf(SessionMixUpException.class);
        assertThatThrownBy(() -> SessionGuard.checkWrite(loaded, "s-2", loaded,
                Optional.of(new MemoryContext.ActiveStep("s-1", "u-1", 7, null)), Optional.empty()))
                .isInstanceOf(SessionMixUpException.class);
    }

    private static SessionState withVersion(SessionState s, long version, String userId, String constraint) {
        List<Constraint> constraints = new ArrayList<>(s.constraints());
        if (constraint != null) {
            constraints.add(new Constraint("c" + version, constraint, Scope.TASK, null));
        }
        return new SessionState(s.sessionId(), userId, version, s.createdAt(), s.updatedAt(), s.status(), s.goal(),
                s.context(), constraints, s.openQuestions(), s.collected(), s.stepPointer(), s.plans(), s.observations(),
                s.summary(), s.forkedFrom());
    }
}

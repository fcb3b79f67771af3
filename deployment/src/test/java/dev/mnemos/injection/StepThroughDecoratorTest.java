package dev.mnemos.injection;

import dev.mnemos.session.AppliedPatch;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that decorates the session store (here: counting reads and writes, as a logging or metrics
 * decorator would) sees every step: the step reads and writes its session through the store's interface, with
 * nothing beside it.
 */
class StepThroughDecoratorTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties")
            .withApplicationRoot(jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class,
                    ScriptedChatModel.class, Counting.class));

    /** An application's decorator of the store: it implements what it counts, nothing else. */
    @Decorator
    @Priority(10)
    abstract static class Counting implements SessionStore {

        static final AtomicInteger READS = new AtomicInteger();
        static final AtomicInteger WRITES = new AtomicInteger();

        @Inject
        @Delegate
        @Any
        SessionStore delegate;

        @Override
        public SessionState recent(String sessionId, int latestPlans) {
            READS.incrementAndGet();
            return delegate.recent(sessionId, latestPlans);
        }

        @Override
        public AppliedPatch apply(StepWrite write) {
            WRITES.incrementAndGet();
            return delegate.apply(write);
        }
    }

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;

    @Test
    void everyStepReadsAndWritesThroughTheApplicationsDecorator() {
        model.reset();
        model.script(request -> "noted");
        String id = "decorated-" + SessionIds.newId();
        ai.chat(id, "first");
        int reads = Counting.READS.get();
        int writes = Counting.WRITES.get();

        ai.chat(id, "second");
        ai.chat(id, "third");

        assertThat(Counting.READS.get() - reads).as("the decorator saw the steps' reads").isEqualTo(2);
        assertThat(Counting.WRITES.get() - writes).as("the decorator saw the steps' writes").isEqualTo(2);
    }
}

package dev.mnemos.injection;

import dev.mnemos.profile.ProfileInjectionSource;
import dev.mnemos.session.AppliedPatch;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that decorates the session store (here: counting writes, as a logging or metrics decorator
 * would) keeps the step's fast read: from a session's second step on, the owner's profile revision is read in
 * the same round trip as the session, so the profile source is asked with that value, never left to read it on
 * its own.
 */
class StepReadThroughDecoratorTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties")
            .withApplicationRoot(jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class,
                    ScriptedChatModel.class, CountingWrites.class, RecordingProfiles.class));

    /** An application's decorator of the store: it implements what it counts, nothing else. */
    @Decorator
    @Priority(10)
    abstract static class CountingWrites implements SessionStore {

        static final AtomicInteger WRITES = new AtomicInteger();

        @Inject
        @Delegate
        @Any
        SessionStore delegate;

        @Override
        public AppliedPatch apply(StepWrite write) {
            WRITES.incrementAndGet();
            return delegate.apply(write);
        }
    }

    /** The real profile source, recording how each step asked it. */
    @Alternative
    @Priority(5)
    @ApplicationScoped
    static class RecordingProfiles implements ProfileSource {

        static final List<String> ASKED = new CopyOnWriteArrayList<>();

        @Inject
        ProfileInjectionSource real;

        @Override
        public ProfileSnapshot load(String userId) {
            ASKED.add("load");
            return real.load(userId);
        }

        @Override
        public Optional<ProfileSnapshot> known(String userId) {
            ASKED.add("alone");
            return real.known(userId);
        }

        @Override
        public Optional<String> knownBy(String userId) {
            return real.knownBy(userId);
        }

        @Override
        public Optional<ProfileSnapshot> known(String userId, String value) {
            ASKED.add("read along");
            return real.known(userId, value);
        }
    }

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;

    @Test
    void aStepThroughTheApplicationsDecoratorReadsTheProfileRevisionAlongWithTheSession() {
        model.reset();
        model.script(request -> "noted");
        String id = "decorated-" + SessionIds.newId();
        int writes = CountingWrites.WRITES.get();

        ai.chat(id, "first");
        RecordingProfiles.ASKED.clear();
        ai.chat(id, "second");
        ai.chat(id, "third");

        assertThat(CountingWrites.WRITES.get() - writes).as("the decorator saw the steps' writes").isEqualTo(3);
        assertThat(RecordingProfiles.ASKED).as("how the second and third steps asked for the profile")
                .contains("read along").doesNotContain("alone");
    }
}

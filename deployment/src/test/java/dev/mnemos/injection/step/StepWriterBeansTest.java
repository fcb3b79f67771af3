package dev.mnemos.injection.step;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.deployment.RecordingChatModel;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.injection.StepCall;
import dev.mnemos.injection.StepWriter;
import dev.mnemos.llm.MnemosModelSupplier;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.quarkiverse.langchain4j.RegisterAiService;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A writer named by {@code @SessionMemory(writer = …)} that is a CDI bean is used as one, with its
 * scope: an application-scoped writer is made once and gets its injections, a {@code @Dependent}
 * one is made anew for every step (writers are resolved once per type, not once per step). Neither is injected
 * anywhere: the build keeps them, though nothing but the annotation names them.
 */
class StepWriterBeansTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            // a service that names MnemosModelSupplier needs a model to start, though this test never calls it
            .withApplicationRoot(jar -> jar.addClasses(RecordingChatModel.class));

    @Inject
    StepCycle cycle;
    @Inject
    SessionStore store;
    @Inject
    InjectionConfig config;

    /** An AI service, as the build requires of every {@code @SessionMemory} method; the test drives its cycle directly. */
    @RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
    interface Steps {

        @SessionMemory(step = "shared", writer = SharedWriter.class)
        @SystemMessage("{inject:memory.block}")
        String shared(@MemoryId String sessionId, @UserMessage String message);

        @SessionMemory(step = "fresh", writer = FreshWriter.class)
        @SystemMessage("{inject:memory.block}")
        String fresh(@MemoryId String sessionId, @UserMessage String message);
    }

    @ApplicationScoped
    static class SharedWriter implements StepWriter {

        static final AtomicInteger MADE = new AtomicInteger();

        @Inject
        InjectionConfig config;

        @PostConstruct
        void made() {
            MADE.incrementAndGet();
        }

        @Override
        public SessionPatch patch(StepCall call) {
            return SessionPatch.builder().putCollected("shared." + call.userMessage(), "plans " + config.plansShown())
                    .build();
        }
    }

    @Dependent
    static class FreshWriter implements StepWriter {

        static final AtomicInteger MADE = new AtomicInteger();
        private int calls;

        @PostConstruct
        void made() {
            MADE.incrementAndGet();
        }

        @Override
        public SessionPatch patch(StepCall call) {
            calls++;
            return SessionPatch.builder().putCollected("fresh." + call.userMessage(), "call " + calls).build();
        }
    }

    @Test
    void writerBeansAreUsedWithTheirScope() throws Exception {
        AiMethod shared = AiMethod.of(Steps.class.getMethod("shared", String.class, String.class));
        AiMethod fresh = AiMethod.of(Steps.class.getMethod("fresh", String.class, String.class));
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("g").build()).by("t"))
                .sessionId();
        int freshBefore = FreshWriter.MADE.get();

        for (int i = 1; i <= 3; i++) {
            cycle.run(shared, new Object[] { id, "m" + i }, () -> "ok");
            cycle.run(fresh, new Object[] { id, "m" + i }, () -> "ok");
        }

        SessionState state = store.get(id);
        assertThat(state.collected()).containsEntry("shared.m1", "plans " + config.plansShown())
                .containsEntry("shared.m3", "plans " + config.plansShown());
        assertThat(SharedWriter.MADE.get()).as("application-scoped writers made").isEqualTo(1);
        assertThat(state.collected()).containsEntry("fresh.m1", "call 1").containsEntry("fresh.m2", "call 1")
                .containsEntry("fresh.m3", "call 1");
        assertThat(FreshWriter.MADE.get() - freshBefore).as("dependent writers made").isEqualTo(3);
        store.delete(id);
    }
}

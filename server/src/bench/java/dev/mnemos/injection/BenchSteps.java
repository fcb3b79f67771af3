package dev.mnemos.injection;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.step.StepCycle;
import dev.mnemos.llm.MnemosModelSupplier;
import dev.mnemos.session.SessionPatch;
import io.quarkiverse.langchain4j.RegisterAiService;

/**
 * The step signatures the benchmark drives through {@link StepCycle}, model excluded. An AI service, as the
 * build requires of every {@code @SessionMemory} method; the benchmark never calls it.
 */
@RegisterAiService(chatLanguageModelSupplier = MnemosModelSupplier.class)
interface BenchSteps {

    @SessionMemory(step = "answer")
    @SystemMessage("{inject:memory.block}")
    String answer(@MemoryId String sessionId, @UserMessage String message);

    @SessionMemory(step = "plan", output = StepOutput.PLAN)
    @SystemMessage("{inject:memory.block}")
    String plan(@MemoryId String sessionId, @UserMessage String message);

    @SessionMemory(step = "turn", writer = TranscriptWriter.class)
    @SystemMessage("{inject:memory.block}")
    String turn(@MemoryId String sessionId, @UserMessage String message);

    /** Folds every turn into the rolling summary (newest kept) and keeps the last turn as a collected value. */
    class TranscriptWriter implements StepWriter {

        static final int SUMMARY_CHARS = 4000;

        @Override
        public SessionPatch patch(StepCall call) {
            String previous = call.state().summary() == null ? "" : call.state().summary() + "\n";
            String summary = previous + cut(call.userMessage(), 160);
            if (summary.length() > SUMMARY_CHARS) {
                summary = summary.substring(summary.indexOf('\n', summary.length() - SUMMARY_CHARS) + 1);
            }
            return SessionPatch.builder().summary(summary)
                    .putCollected("turn.last", cut(call.userMessage(), 2000)).build();
        }

        /**
         * Not {@code DefaultStepWriter.cut}: that is package-private in the extension's runtime, which
         * Quarkus tests load with another class loader than this test package.
         */
        private static String cut(String text, int max) {
            return text.length() <= max ? text : text.substring(0, max - 1) + "…";
        }
    }
}

package dev.mnemos.injection;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.mnemos.session.SessionPatch;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InstanceHandle;

/**
 * The default write-back: the step pointer moves to the next index with the step's name, the
 * answer (a String as is, any other result as JSON) is stored under {@code collected["answer.<step>"]},
 * and a PLAN output also appends a plan version. Answers longer than {@link #MAX_CHARS} are cut
 * there, so a long answer never fails the step after the model was paid for. Unless
 * {@code quarkus.mnemos.injection.capture.enabled} is false, the user's message also gives the task its goal,
 * constraints, observations and open questions ({@link StepCapture}).
 */
public class DefaultStepWriter implements StepWriter {

    /** Longest answer stored, in characters (the session's default text limit). */
    public static final int MAX_CHARS = 10_000;

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private final StepCapture capture;

    /** The writer with the application's {@link StepCapture} bean; none outside a running application. */
    public DefaultStepWriter() {
        this(configured());
    }

    /** @param capture what reads the user's message ({@link StepCapture#NONE}: write the answer only) */
    public DefaultStepWriter(StepCapture capture) {
        this.capture = capture == null ? StepCapture.NONE : capture;
    }

    private static StepCapture configured() {
        ArcContainer container = Arc.container();
        if (container == null) {
            return StepCapture.NONE;
        }
        try (InstanceHandle<StepCapture> bean = container.instance(StepCapture.class)) {
            return bean.isAvailable() ? bean.get() : StepCapture.NONE;
        }
    }

    @Override
    public SessionPatch patch(StepCall call) {
        SessionPatch.Builder patch = SessionPatch.builder().stepPointer(call.nextIndex(), call.step());
        String answer = text(call.result());
        if (answer != null && !answer.isBlank()) {
            patch.putCollected("answer." + call.step(), cut(answer, MAX_CHARS));
            if (call.output() == StepOutput.PLAN) {
                patch.addPlan(answer, null, null);
            }
        }
        capture.capture(call.state(), call.userMessage(), call.output() == StepOutput.TEXT ? answer : null, patch);
        return patch.build();
    }

    /** A String result as is, null as null, anything else (records, lists) as JSON. */
    public static String text(Object result) {
        if (result == null || result instanceof String) {
            return (String) result;
        }
        try {
            return JSON.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            return String.valueOf(result);
        }
    }

    public static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }
}

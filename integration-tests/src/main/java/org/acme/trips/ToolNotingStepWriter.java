package org.acme.trips;

import dev.mnemos.injection.DefaultStepWriter;
import dev.mnemos.injection.StepCall;
import dev.mnemos.injection.StepWriter;
import dev.mnemos.session.SessionPatch;

import java.util.stream.Collectors;

/**
 * Writes the step's answer under {@code collected["answer.<step>"]} and which tools it ran under
 * {@code collected["tools.<step>"]}: each run's tool name, with "(failed)" after one that failed, in order.
 */
public class ToolNotingStepWriter implements StepWriter {

    @Override
    public SessionPatch patch(StepCall call) {
        SessionPatch.Builder patch = SessionPatch.builder().stepPointer(call.nextIndex(), call.step())
                .putCollected("answer." + call.step(), DefaultStepWriter.text(call.result()));
        if (!call.tools().isEmpty()) {
            patch.putCollected("tools." + call.step(), call.tools().stream()
                    .map(run -> run.tool() + (run.failed() ? " (failed)" : "")).collect(Collectors.joining(", ")));
        }
        return patch.build();
    }
}

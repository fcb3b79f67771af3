package dev.mnemos.agent;

import dev.mnemos.injection.StepCall;
import dev.mnemos.injection.StepWriter;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.StepPointer;

/**
 * Routing changes nothing in the task: the step is recorded (with its trace) and the step pointer
 * stays where the task stands.
 */
public class RoutingWriter implements StepWriter {

    @Override
    public SessionPatch patch(StepCall call) {
        StepPointer current = call.state().stepPointer();
        StepPointer keep = current != null ? current : TaskStep.COLLECT_GOAL.pointer();
        return SessionPatch.builder().stepPointer(keep.index(), keep.name()).build();
    }
}

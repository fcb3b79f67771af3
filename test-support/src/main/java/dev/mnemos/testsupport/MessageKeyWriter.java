package dev.mnemos.testsupport;

import dev.mnemos.injection.StepCall;
import dev.mnemos.injection.StepWriter;
import dev.mnemos.session.SessionPatch;

/** A custom writer: stores each answer under {@code m.<user message>}, so concurrent steps never share a key. */
public class MessageKeyWriter implements StepWriter {

    @Override
    public SessionPatch patch(StepCall call) {
        return SessionPatch.builder().putCollected("m." + call.userMessage(), String.valueOf(call.result())).build();
    }
}

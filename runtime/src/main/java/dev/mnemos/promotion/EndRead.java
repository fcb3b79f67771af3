package dev.mnemos.promotion;

import dev.mnemos.injection.StepTrace;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionState;

import java.util.List;

/** What an end read of its session in Redis and archives: the final state, the replay log and the step traces. */
public record EndRead(SessionState state, List<SessionEvent> events, List<StepTrace> traces) {
}

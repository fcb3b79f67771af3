package dev.mnemos.injection;

import dev.mnemos.injection.step.StepThread;
import dev.mnemos.session.AppliedPatch;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Optional;

/**
 * What the last {@code @SessionMemory} step on the current thread wrote. The code that called the
 * annotated AI service gets the session state after the step from the state it already holds and
 * the patch the step wrote, without reading the session again: a step's cost stays flat however
 * large the session grows.
 */
@ApplicationScoped
public class StepResults {

    private static final StepThread.Slot<Written> LAST = StepThread.slot();

    private record Written(String sessionId, SessionState read, AppliedPatch applied) {
    }

    /** The step cycle's side: a step on this thread wrote {@code applied} on the state it {@code read}. */
    public void record(String sessionId, SessionState read, AppliedPatch applied) {
        LAST.set(new Written(sessionId, read, applied));
    }

    /**
     * The state after the last step this thread ran on {@code known}'s session, rebuilt on top of
     * {@code known} (all of its plans kept). Empty when no step of that session ran on this thread,
     * or when {@code known} is not the version that step wrote on (a concurrent write came in between):
     * then read the session.
     */
    public Optional<SessionState> after(SessionState known) {
        Written written = LAST.get();
        if (written == null || !written.sessionId().equals(known.sessionId())) {
            return Optional.empty();
        }
        return written.applied().applyTo(known);
    }

    /**
     * The state after the last step this thread ran on {@code sessionId}, rebuilt on top of the state
     * the step read (so with the plans a step reads: the newest ones). Empty as {@link #after(SessionState)}.
     */
    public Optional<SessionState> after(String sessionId) {
        Written written = LAST.get();
        if (written == null || !written.sessionId().equals(sessionId)) {
            return Optional.empty();
        }
        return written.applied().applyTo(written.read());
    }
}

package dev.mnemos.session;

import java.util.List;

/** Rebuilds states from the replay log: the reference for what each event did. */
public final class SessionReplay {

    private SessionReplay() {
    }

    /** The state after {@code event}, given the state before it (null before the first event). */
    public static SessionState apply(SessionState before, SessionEvent event) {
        return switch (event.type()) {
            case CREATE, FORK, ROLLBACK -> event.state();
            case PATCH -> event.patch().applyTo(before, event.version(), event.at());
            case END -> ended(before, event);
        };
    }

    /** The state after all {@code events}, applied in order from {@code start} (null to start from nothing). */
    public static SessionState replay(SessionState start, List<SessionEvent> events) {
        SessionState state = start;
        for (SessionEvent event : events) {
            state = apply(state, event);
        }
        return state;
    }

    private static SessionState ended(SessionState s, SessionEvent e) {
        return new SessionState(s.sessionId(), s.userId(), e.version(), s.createdAt(), e.at(),
                SessionState.Status.ENDED, s.goal(), s.context(), s.constraints(), s.openQuestions(), s.collected(),
                s.stepPointer(), s.plans(), s.observations(), s.summary(), s.forkedFrom());
    }
}

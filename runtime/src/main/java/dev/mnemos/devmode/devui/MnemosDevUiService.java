package dev.mnemos.devmode.devui;

import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPage;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Dev mode only: the JSON-RPC service behind the Dev UI's <em>Sessions and traces</em> page on Mnemos' card. It reads
 * the session store and the trace store directly, so the page works with the REST API off, and answers for any user
 * the developer picks: the Dev UI is served to this machine only. A user id that breaks the grammar is refused. Its
 * methods block on Redis; the Dev UI runs methods that do not return a {@code Uni} on a worker thread.
 */
@ApplicationScoped
public class MnemosDevUiService {

    /** Most step traces {@link #latestTraces} returns, whatever is asked. */
    public static final int MAX_TRACES = 100;
    /** Session ids read from the store at once. */
    static final int PAGE = 20;

    private final DevUsers users;
    private final SessionStore sessions;
    private final StepTraceStore traces;

    public MnemosDevUiService(DevUsers users, SessionStore sessions, StepTraceStore traces) {
        this.users = users;
        this.sessions = sessions;
        this.traces = traces;
    }

    /** The users with a session index in Redis, sorted, at most {@value DevUsers#LIMIT}. */
    public List<String> users() {
        return users.list();
    }

    /** The user's live sessions, newest update first. */
    public List<LiveSession> sessions(String userId) {
        return live(userId).stream().sorted(Comparator.comparing(SessionState::updatedAt).reversed())
                .map(LiveSession::of).toList();
    }

    /** The newest {@code limit} step traces across the user's live sessions, newest first. */
    public List<TraceLine> latestTraces(String userId, int limit) {
        return live(userId).stream().flatMap(state -> traces.all(state.sessionId()).stream())
                .sorted(Comparator.comparing(StepTrace::at).reversed())
                .limit(Math.max(0, Math.min(limit, MAX_TRACES))).map(TraceLine::of).toList();
    }

    /**
     * Read a page of {@value #PAGE} ids at a time: the store checks a page's ids with concurrent Redis calls, so a page
     * bounds the calls in flight, where the whole list would queue one per session on the Redis pool and overflow its
     * wait queue for a user with many sessions.
     */
    private List<SessionState> live(String userId) {
        SessionIds.requireUser("userId", userId);
        List<SessionState> states = new ArrayList<>();
        String after = null;
        do {
            SessionPage page = sessions.liveSessions(userId, after, PAGE);
            page.ids().stream().map(this::state).flatMap(Optional::stream).forEach(states::add);
            after = page.next();
        } while (after != null);
        return states;
    }

    /** A session that ended between the index read and its own read is left out. */
    private Optional<SessionState> state(String sessionId) {
        try {
            return Optional.of(sessions.get(sessionId));
        } catch (SessionNotFoundException | SessionEndedException e) {
            return Optional.empty();
        }
    }
}

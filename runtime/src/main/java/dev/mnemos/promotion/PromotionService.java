package dev.mnemos.promotion;

import dev.mnemos.archive.ArchiveMeters;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.profile.ProfilePromotions;
import dev.mnemos.profile.ProfileUnavailableException;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.tracing.MnemosSpans;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Ends a task: marks the session ENDED, decides its candidates (observations, plus facts extracted
 * from the user's own chat messages when a model is configured), promotes through the profile,
 * archives the replay log and final state in Postgres, and only then clears the Redis keys.
 * Ending again answers the stored report. When Postgres is unreachable nothing is cleared and
 * {@link ProfileUnavailableException} is thrown.
 */
@ApplicationScoped
public class PromotionService {

    private static final int PAGE = 1000;

    private final SessionStore store;
    private final PromotionTransaction transaction;
    private final ProfilePromotions profile;
    private final CandidateSources sources;
    private final StepTraceStore traces;
    private final StatementReader statements;
    private final MnemosSpans spans;
    private final ArchiveMeters archiveMeters;

    public PromotionService(SessionStore store, PromotionTransaction transaction, ProfilePromotions profile,
            CandidateSources sources, StepTraceStore traces, StatementReader statements, MnemosSpans spans,
            ArchiveMeters archiveMeters) {
        this.statements = statements;
        this.traces = traces;
        this.spans = spans;
        this.archiveMeters = archiveMeters;
        this.store = store;
        this.transaction = transaction;
        this.profile = profile;
        this.sources = sources;
    }

    /** The report of a session that has already ended and been archived. */
    public Optional<PromotionReport> endedReport(String sessionId) {
        return ProfileUnavailableException.guard(() -> transaction.report(sessionId));
    }

    /**
     * Ends a live session (the caller has checked ownership) and returns the promotion report.
     *
     * @throws dev.mnemos.session.SessionNotFoundException when there is no such live session
     * @throws ProfileUnavailableException when Postgres is down: nothing was cleared
     * @throws EndIncompleteException when Postgres failed after the session was marked ended: ending it again completes it
     */
    public PromotionReport end(String sessionId, String actor) {
        return spans.in("mnemos.end", sessionId, () -> endTraced(sessionId, actor)).report();
    }

    /**
     * Ends the session as {@link #end} does and answers whether this call archived it: {@code false} when another end
     * (a client's retry, another instance's sweep) archived it first. Sweeps running at once count each end once.
     */
    boolean complete(String sessionId, String actor) {
        return spans.in("mnemos.end", sessionId, () -> endTraced(sessionId, actor)).archivedNow();
    }

    private PromotionTransaction.Ended endTraced(String sessionId, String actor) {
        Optional<PromotionReport> done = endedReport(sessionId);
        if (done.isPresent()) {
            clear(sessionId);
            return new PromotionTransaction.Ended(done.get(), false);
        }
        if (!profile.reachable()) {
            throw new ProfileUnavailableException("Postgres is unreachable; the session was left as it was", null);
        }
        EndRead read = read(sessionId, actor);
        List<Candidate> candidates = sources.candidates(read.state());
        PromotionTransaction.Ended ended;
        try {
            ended = spans.in("mnemos.end.promote", sessionId, () -> ProfileUnavailableException.guard(
                    () -> transaction.commit(read, () -> read(sessionId, actor), candidates, statements.policy(), actor)));
        } catch (RuntimeException e) {
            archiveMeters.failed();
            if (e instanceof ProfileUnavailableException || ProfileUnavailableException.isTransient(e)) {
                // the session is ENDED in Redis already: say so, and that ending it again completes it
                throw new EndIncompleteException(sessionId, e);
            }
            throw e;
        }
        if (ended.archivedNow()) {
            archiveMeters.written(); // not when another end archived it first: that one counted it
        }
        clear(sessionId);
        return ended;
    }

    private void clear(String sessionId) {
        spans.in("mnemos.end.clear", sessionId, () -> {
            store.retire(sessionId);
            return sessionId;
        });
    }

    /** Marks the session ENDED (once: reading an ended session again only reads it) and reads what its archive holds. */
    private EndRead read(String sessionId, String actor) {
        SessionState state = store.end(sessionId, actor);
        return new EndRead(state, events(sessionId), traces.all(sessionId));
    }

    private List<SessionEvent> events(String sessionId) {
        List<SessionEvent> all = new ArrayList<>();
        long from = 1;
        while (true) {
            List<SessionEvent> page = store.events(sessionId, from, PAGE);
            all.addAll(page);
            if (page.size() < PAGE) {
                return all;
            }
            from = page.get(page.size() - 1).version() + 1;
        }
    }
}

package dev.mnemos.app;

import dev.mnemos.promotion.PromotionReport;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * Ending a session in an application with session memory only (no profile layer): the session is marked ENDED, then
 * its Redis keys are removed as after an archived end; nothing is promoted or archived, so its history, traces and
 * this report are gone with them. The report says so in its {@code notice}.
 */
@DefaultBean
@ApplicationScoped
public class SessionOnlyEnd implements SessionEnd {

    static final String NOTICE = "No profile is configured (session memory only): no observation was promoted and"
            + " the session was not archived. Its Redis keys (state, history, chat memory, step traces) were deleted;"
            + " reading or ending it again answers 404.";

    private final SessionStore store;

    SessionOnlyEnd(SessionStore store) {
        this.store = store;
    }

    @Override
    public PromotionReport end(String sessionId, String actor) {
        SessionState state = store.end(sessionId, actor);
        store.retire(sessionId);
        return new PromotionReport(sessionId, state.userId(), Instant.now(), List.of(), List.of(), List.of(),
                List.of(), NOTICE);
    }

    @Override
    public PromotionReport counted(Supplier<PromotionReport> request) {
        return request.get();
    }
}

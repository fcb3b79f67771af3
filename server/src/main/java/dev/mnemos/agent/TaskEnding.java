package dev.mnemos.agent;

import dev.mnemos.promotion.DecisionEntry;
import dev.mnemos.promotion.PromotionReport;
import dev.mnemos.promotion.PromotionService;
import dev.mnemos.session.SessionHistory;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * The end of a task, the one place the agent touches promotion: {@link PromotionService} ends the
 * session, promotes what its policy allows, archives the history and clears the session from Redis.
 */
@ApplicationScoped
public class TaskEnding {

    private final PromotionService promotion;
    private final SessionHistory history;
    private final AgentConfig config;

    public TaskEnding(PromotionService promotion, SessionHistory history, AgentConfig config) {
        this.promotion = promotion;
        this.history = history;
        this.config = config;
    }

    /** The ended session's final state (read back from the archive), the report, and the texts promoted. */
    public record Ended(SessionState state, PromotionReport report, List<String> promoted) {
    }

    public Ended end(SessionState s) {
        PromotionReport report = promotion.end(s.sessionId(), config.actor());
        SessionState last = history.finalState(s.sessionId()).orElse(s);
        return new Ended(last, report, report.promoted().stream().map(DecisionEntry::text).toList());
    }
}

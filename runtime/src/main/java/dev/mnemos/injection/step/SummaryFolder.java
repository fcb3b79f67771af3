package dev.mnemos.injection.step;

import dev.mnemos.injection.DefaultStepWriter;
import dev.mnemos.injection.block.MemoryBlockRenderer;
import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;

import java.util.List;
import java.util.Optional;

/**
 * Folds plan versions that left the block's window into the rolling summary, deterministically:
 * one line per plan (its version, score and first line, cut at 200 characters) appended to the
 * summary, whose oldest lines are dropped beyond the size limit. How far plans have been folded is
 * kept in {@code collected["_mnemos.folded-plans"]}.
 */
public final class SummaryFolder {

    /** Collected key holding the newest plan version already folded into the summary. */
    public static final String FOLDED_KEY = MemoryBlockRenderer.RESERVED_PREFIX + "folded-plans";

    /** A new summary, and the newest plan version it now covers. */
    public record Fold(String summary, int foldedThrough) {
    }

    private SummaryFolder() {
    }

    /** The fold due for {@code state}, or empty when every plan outside the window is already in the summary. */
    public static Optional<Fold> fold(SessionState state, int plansShown, int maxChars) {
        List<PlanVersion> due = due(state, plansShown);
        if (due.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder summary = new StringBuilder(state.summary() == null ? "" : state.summary());
        for (PlanVersion plan : due) {
            if (!summary.isEmpty()) {
                summary.append('\n');
            }
            summary.append("plan v").append(plan.version())
                    .append(plan.score() == null ? "" : " (score " + plan.score() + ")")
                    .append(": ").append(DefaultStepWriter.cut(firstLine(plan.content()), 200));
        }
        return Optional.of(new Fold(keepNewest(summary.toString(), maxChars), due.get(due.size() - 1).version()));
    }

    /** Plans outside the rendered window that the summary does not cover yet, oldest first. */
    static List<PlanVersion> due(SessionState state, int plansShown) {
        int outside = state.plans().size() - plansShown;
        if (outside <= 0) {
            return List.of();
        }
        int folded = foldedThrough(state);
        return state.plans().subList(0, outside).stream().filter(p -> p.version() > folded).toList();
    }

    /**
     * Loads the session with every plan the fold still needs: normally the shown window plus one,
     * more when several plans arrived since the last fold (for example through the HTTP steps API).
     */
    public static SessionState loadForFold(SessionStore store, String sessionId, int plansShown) {
        return needed(store, sessionId, plansShown, store.recent(sessionId, plansShown + 1));
    }

    /** {@code state}, or the session read again with more plans when the fold needs them. */
    private static SessionState needed(SessionStore store, String sessionId, int plansShown, SessionState state) {
        PlanVersion latest = state.latestPlan();
        int needed = latest == null ? 0 : latest.version() - foldedThrough(state);
        return needed > plansShown + 1 ? store.recent(sessionId, needed) : state;
    }

    static int foldedThrough(SessionState state) {
        try {
            return Integer.parseInt(state.collected().getOrDefault(FOLDED_KEY, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String firstLine(String text) {
        String trimmed = text.strip();
        int end = trimmed.indexOf('\n');
        return end < 0 ? trimmed : trimmed.substring(0, end);
    }

    private static String keepNewest(String summary, int maxChars) {
        if (summary.length() <= maxChars) {
            return summary;
        }
        String tail = summary.substring(summary.length() - maxChars + 1);
        int line = tail.indexOf('\n');
        return "…" + (line >= 0 && line < tail.length() - 1 ? tail.substring(line + 1) : tail);
    }
}

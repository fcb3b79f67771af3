package dev.mnemos.app;

import java.time.Instant;

/**
 * A destructive call an agent made over MCP beyond its session's budget, held for the user (docs/mcp.md "Destructive
 * tools"). {@code tool} says which call: {@code forget_fact} names {@code factId} (and {@code factText}, the fact's
 * text while it is active and the request pending), {@code undo_task_promotion} names {@code sessionId} and
 * {@code force}, {@code remember} names the "forget …" {@code instruction} (gone once decided: it quotes what it
 * forgets). {@code status} is PENDING, CONFIRMED or REJECTED.
 */
public record PendingRequest(long id, String tool, Long factId, String factText, String sessionId, Boolean force,
        String instruction, String status, Instant requestedAt, Instant decidedAt) {

    public static final String FORGET_FACT = "forget_fact";
    public static final String REMEMBER = "remember";
    public static final String UNDO_TASK_PROMOTION = "undo_task_promotion";

    public static final String PENDING = "PENDING";
    public static final String CONFIRMED = "CONFIRMED";
    public static final String REJECTED = "REJECTED";
}

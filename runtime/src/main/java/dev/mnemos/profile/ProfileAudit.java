package dev.mnemos.profile;

import java.time.Instant;
import java.util.regex.Pattern;

/** The profile's audit events as its write path stores them: one {@link ProfileEvent} per change. */
final class ProfileAudit {

    /** How the event of a fact that replaced another begins: {@code replaces fact <id>}. */
    static final String REPLACES = "replaces fact ";
    /** {@link #REPLACES} with the id of the fact replaced. */
    static final Pattern REPLACED = Pattern.compile(REPLACES + "(\\d+)");

    private ProfileAudit() {
    }

    /** Stores one audit event in the caller's transaction; the change it reports carries the event's id. */
    static Change audit(WriteContext ctx, Long factId, ProfileAction action, String before, String after,
            String reason, Instant now) {
        ProfileEvent event = new ProfileEvent();
        event.userId = ctx.userId();
        event.factId = factId;
        event.action = action;
        event.before = before;
        event.after = after;
        event.reason = reason;
        event.actor = ctx.actor();
        event.sessionId = ctx.sessionId();
        event.at = now;
        event.persist();
        return new Change(action, factId, before, after, reason, event.id);
    }
}

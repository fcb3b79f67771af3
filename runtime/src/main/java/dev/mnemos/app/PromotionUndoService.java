package dev.mnemos.app;

import dev.mnemos.archive.EndedSessions;
import dev.mnemos.promotion.PromotionUndo;
import dev.mnemos.promotion.UndoReport;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionNotFoundException;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Undo of what one ended session taught the profile, for a transport: only the session's owner may undo it; any
 * other session, live or someone else's, fails exactly as a missing one.
 */
@ApplicationScoped
public class PromotionUndoService {

    private final PromotionUndo undo;
    private final EndedSessions archive;

    PromotionUndoService(PromotionUndo undo, EndedSessions archive) {
        this.undo = undo;
        this.archive = archive;
    }

    /** Reverts the session end's profile changes; {@code force} keeps later changes and undoes the rest. */
    public UndoReport undo(Actor who, String id, boolean force) {
        requireEnded(who, id);
        return undo.undo(who.user(), id, who.actor(), force);
    }

    /** Fails as {@link #undo} would unless {@code id} is an ended session of {@code who.user()}; changes nothing. */
    public void requireEnded(Actor who, String id) {
        SessionIds.require("sessionId", id);
        String owner = archive.owner(id).orElseThrow(() -> new SessionNotFoundException(id));
        if (!owner.equals(who.user())) {
            throw new SessionNotFoundException(id);
        }
    }
}

package dev.mnemos.promotion;

import dev.mnemos.profile.ProfileService;
import dev.mnemos.profile.ProfileUnavailableException;
import dev.mnemos.profile.ProfileUndo;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Undo of a session's promotion ({@link UndoTransaction}), answered with the profile after it. The caller has
 * checked that the session is the user's. A transient Postgres failure is {@link ProfileUnavailableException}:
 * nothing or everything was undone, and undoing again is safe.
 */
@ApplicationScoped
public class PromotionUndo {

    private final UndoTransaction transaction;
    private final ProfileService profiles;

    public PromotionUndo(UndoTransaction transaction, ProfileService profiles) {
        this.transaction = transaction;
        this.profiles = profiles;
    }

    /**
     * Undoes {@code sessionId}'s promotion for {@code userId}, acted on by {@code actor}.
     *
     * @throws dev.mnemos.session.SessionNotFoundException unless it is an ended session of the user
     * @throws dev.mnemos.profile.UndoConflictException unless {@code force}, when later changes touched its facts
     */
    public UndoReport undo(String userId, String sessionId, String actor, boolean force) {
        ProfileUndo.Reverted reverted = ProfileUnavailableException
                .guard(() -> transaction.undo(userId, sessionId, actor, force));
        return new UndoReport(sessionId, userId, reverted.at(), reverted.repeated(), reverted.changes(),
                reverted.kept(), profiles.activeFacts(userId));
    }
}

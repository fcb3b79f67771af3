package dev.mnemos.promotion;

import dev.mnemos.archive.EndedSessions;
import dev.mnemos.crypt.MemoryCipher;
import dev.mnemos.crypt.Place;
import dev.mnemos.profile.Change;
import dev.mnemos.profile.ProfilePromotions;
import dev.mnemos.profile.ProfileUndo;
import dev.mnemos.session.SessionNotFoundException;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Undoes what one session's end taught the profile, in one transaction under the user's profile lock: the profile
 * changes its report lists are reverted ({@link ProfileUndo}), the pending candidates it created are dropped, the
 * candidates it promoted no longer count as evidence (REJECTED), and the earlier sessions' candidates it settled as
 * PROMOTED wait for the user again. Undoing again, or racing another undo, answers the first undo's changes and
 * writes nothing.
 */
@ApplicationScoped
public class UndoTransaction {

    /** Why a candidate of an undone session no longer counts. */
    static final String UNDONE = "its session's promotion was undone";

    private final ProfilePromotions profile;
    private final ProfileUndo undo;
    private final EndedSessions archive;
    private final MemoryCipher cipher;

    public UndoTransaction(ProfilePromotions profile, ProfileUndo undo, EndedSessions archive, MemoryCipher cipher) {
        this.cipher = cipher;
        this.profile = profile;
        this.undo = undo;
        this.archive = archive;
    }

    /**
     * @throws SessionNotFoundException unless {@code sessionId} is an ended session of {@code userId}
     * @throws dev.mnemos.profile.UndoConflictException unless {@code force}, when later changes touched its facts
     */
    @Transactional
    public ProfileUndo.Reverted undo(String userId, String sessionId, String actor, boolean force) {
        profile.lock(userId);
        PromotionReport report = archive.report(sessionId, PromotionReport.class)
                .filter(r -> userId.equals(r.userId())).orElseThrow(() -> new SessionNotFoundException(sessionId));
        Optional<ProfileUndo.Reverted> done = undo.undone(userId, sessionId);
        if (done.isPresent()) {
            return done.get();
        }
        List<Long> events = report.profileChanges().stream().map(Change::eventId).filter(Objects::nonNull).toList();
        List<PromotionCandidate> pending = PromotionCandidate.list("userId = ?1 and sessionId = ?2 and status = ?3",
                Sort.by("id"), userId, sessionId, CandidateStatus.PENDING);
        ProfileUndo.Reverted reverted = undo.revert(userId, sessionId, actor, events,
                pending.stream().map(c -> c.text).toList(), force);
        pending.forEach(PromotionCandidate::delete);
        PromotionCandidate.update(
                "status = ?1, reason = ?2, decidedAt = ?3 where userId = ?4 and sessionId = ?5 and status = ?6",
                CandidateStatus.REJECTED, cipher.seal(UNDONE, Place.of(userId, "promotion_candidate", "reason")),
                reverted.at(), userId, sessionId, CandidateStatus.PROMOTED);
        // the end settled earlier sessions' pending candidates of the same preference at its own instant
        Instant ended = report.endedAt();
        PromotionCandidate.update("status = ?1, decidedAt = null where userId = ?2 and sessionId <> ?3 and status = ?4"
                + " and decidedAt >= ?5 and decidedAt <= ?6", CandidateStatus.PENDING, userId, sessionId,
                CandidateStatus.PROMOTED, ended.minus(1, ChronoUnit.MICROS), ended.plus(1, ChronoUnit.MICROS));
        return reverted;
    }
}

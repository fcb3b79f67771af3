package dev.mnemos.promotion;

import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Reads a candidate's evidence from earlier sessions' decisions; runs inside the caller's transaction. */
@ApplicationScoped
public class EvidenceReader {

    /**
     * Earlier sessions that observed the same candidate since the last contradicting observation on
     * its slot (rejected, task-scoped ones do not count), and contradictions within this session.
     */
    public Evidence of(String userId, String sessionId, Candidate c, Collection<Candidate> thisSession) {
        List<PromotionCandidate> history = c.slot() == null
                ? PromotionCandidate.list("userId = ?1 and candidateKey = ?2 and sessionId <> ?3", Sort.descending("id"),
                userId, c.key(), sessionId)
                : PromotionCandidate.list("userId = ?1 and slot = ?2 and sessionId <> ?3", Sort.descending("id"),
                userId, c.slot(), sessionId);
        Set<String> sessions = new HashSet<>();
        for (PromotionCandidate earlier : history) {
            if (earlier.status == CandidateStatus.REJECTED) {
                continue;
            }
            if (!earlier.candidateKey.equals(c.key())) {
                break;
            }
            sessions.add(earlier.sessionId);
        }
        int contradictions = c.slot() == null ? 0 : (int) thisSession.stream()
                .filter(o -> c.slot().equals(o.slot()) && !o.key().equals(c.key())).count();
        return new Evidence(sessions.size(), contradictions, false);
    }

    /** Marks every PENDING candidate of the user with {@code key} as decided. */
    public void settle(String userId, String key, CandidateStatus status, Instant at) {
        PromotionCandidate.update("status = ?1, decidedAt = ?2 where userId = ?3 and candidateKey = ?4 and status = ?5",
                status, at, userId, key, CandidateStatus.PENDING);
    }
}

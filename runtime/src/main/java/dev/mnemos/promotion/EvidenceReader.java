package dev.mnemos.promotion;

import dev.mnemos.profile.ProfilePromotions;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Reads a candidate's evidence from earlier sessions' decisions; runs inside the caller's transaction. */
@ApplicationScoped
public class EvidenceReader {

    /** The evidence, and the stored candidates that are the same preference (settled with it). */
    public record Found(Evidence evidence, List<Long> same) {
    }

    /** How many of the newest earlier candidates are compared; older evidence is not counted. */
    private static final int HISTORY = 1000;

    private final PromotionConfig config;
    private final ProfilePromotions profile;

    public EvidenceReader(PromotionConfig config, ProfilePromotions profile) {
        this.config = config;
        this.profile = profile;
    }

    /**
     * Earlier sessions that observed the same candidate (same key, or embeddings at least
     * {@link PromotionConfig#sameSimilarity()} alike) since the last contradicting observation on its
     * slot — rejected, task-scoped ones do not count — and contradictions within this session.
     */
    public Found of(String userId, String sessionId, Candidate c, Collection<Candidate> thisSession) {
        List<PromotionCandidate> history = (c.slot() == null
                ? PromotionCandidate.<PromotionCandidate> find("userId = ?1 and slot is null and sessionId <> ?2",
                        Sort.descending("id"), userId, sessionId)
                : PromotionCandidate.<PromotionCandidate> find("userId = ?1 and slot = ?2 and sessionId <> ?3",
                        Sort.descending("id"), userId, c.slot(), sessionId))
                .page(0, HISTORY).list();
        Set<String> sessions = new HashSet<>();
        List<Long> same = new ArrayList<>();
        for (PromotionCandidate earlier : history) {
            if (earlier.status == CandidateStatus.REJECTED) {
                continue;
            }
            boolean isSame = same(c, earlier.candidateKey, profile.decode(earlier.embedding));
            if (isSame) {
                sessions.add(earlier.sessionId);
                same.add(earlier.id);
            } else if (c.slot() != null) {
                break;
            }
        }
        int contradictions = c.slot() == null ? 0
                : (int) thisSession.stream()
                        .filter(o -> c.slot().equals(o.slot()) && !same(c, o.key(), o.embedding())).count();
        return new Found(new Evidence(sessions.size(), contradictions, false), same);
    }

    /** The same preference: equal keys, or embeddings at least {@link PromotionConfig#sameSimilarity()} alike. */
    private boolean same(Candidate c, String otherKey, float[] otherEmbedding) {
        return c.key().equals(otherKey) || profile.nearDuplicates(c.embedding(), otherEmbedding, config.sameSimilarity());
    }

    /** Marks the PENDING candidates among {@code ids} as decided. */
    public void settle(String userId, Collection<Long> ids, CandidateStatus status, Instant at) {
        if (!ids.isEmpty()) {
            PromotionCandidate.update("status = ?1, decidedAt = ?2 where userId = ?3 and id in ?4 and status = ?5",
                    status, at, userId, ids, CandidateStatus.PENDING);
        }
    }

    /** Marks every PENDING candidate of the user with {@code key} as decided. */
    public void settle(String userId, String key, CandidateStatus status, Instant at) {
        PromotionCandidate.update("status = ?1, decidedAt = ?2 where userId = ?3 and candidateKey = ?4 and status = ?5",
                status, at, userId, key, CandidateStatus.PENDING);
    }
}

package dev.mnemos.promotion;

import dev.mnemos.crypt.MemoryCipher;
import dev.mnemos.profile.ProfilePromotions;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import org.hibernate.jpa.HibernateHints;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Reads a candidate's evidence from earlier sessions' decisions; runs inside the caller's transaction. */
@ApplicationScoped
public class EvidenceReader {

    /** The evidence, and the stored candidates that are the same preference (settled with it). */
    public record Found(Evidence evidence, List<Long> same) {
    }

    /** How many of the newest earlier candidates are compared; older evidence is not counted. */
    private static final int HISTORY = 1000;

    /** Share of topic words (Jaccard) two rewordings of one preference share, without embeddings or with related ones. */
    static final double SAME_WORDS = 0.4;
    /** Cosine similarity of two related statements (a rewording, or the opposite preference on the same subject). */
    static final double RELATED = 0.65;
    /** Share of topic words at which opposite polarity means a contradiction, not a rewording. */
    static final double OPPOSED_WORDS = 0.6;

    private final PromotionConfig config;
    private final ProfilePromotions profile;
    private final StatementReader statements;
    private final MemoryCipher cipher;

    public EvidenceReader(PromotionConfig config, ProfilePromotions profile, StatementReader statements,
            MemoryCipher cipher) {
        this.cipher = cipher;
        this.config = config;
        this.profile = profile;
        this.statements = statements;
    }

    /**
     * The evidence of one session's candidates, read together: each slot's earlier candidates are read once, and
     * each earlier text's gist and embedding worked out once, however many candidates they are compared with.
     * Lives for one end, inside its transaction.
     */
    public Run run(String userId, String sessionId, Collection<Candidate> thisSession) {
        return new Run(userId, sessionId, thisSession);
    }

    /** {@link #run}: one session's candidates. Not thread-safe. */
    public final class Run {

        private final String userId;
        private final String sessionId;
        private final Collection<Candidate> thisSession;
        private final Map<Optional<String>, List<PromotionCandidate>> histories = new HashMap<>();
        private final Map<String, Gist> gists = new HashMap<>();
        private final Map<Long, float[]> vectors = new HashMap<>();

        private Run(String userId, String sessionId, Collection<Candidate> thisSession) {
            this.userId = userId;
            this.sessionId = sessionId;
            this.thisSession = thisSession;
        }

        /**
         * Earlier sessions that observed the same candidate (same key, or embeddings at least
         * {@link PromotionConfig#sameSimilarity()} alike) since the last contradicting observation on its
         * slot — rejected, task-scoped ones do not count — and contradictions within this session.
         */
        public Found of(Candidate c) {
            Gist mine = new Gist(statements.markers(), c.text());
            Set<String> sessions = new HashSet<>();
            List<Long> same = new ArrayList<>();
            for (PromotionCandidate earlier : history(c.slot())) {
                if (earlier.status == CandidateStatus.REJECTED || forgetRequest(earlier.text)) {
                    continue;
                }
                float[] vector = vectors.computeIfAbsent(earlier.id, id -> profile.decode(earlier.embedding));
                if (same(c, mine, earlier.candidateKey, gist(earlier.text), vector)) {
                    sessions.add(earlier.sessionId);
                    same.add(earlier.id);
                } else if (c.slot() != null) {
                    break;
                }
            }
            int contradictions = c.slot() == null ? 0
                    : (int) thisSession.stream().filter(o -> c.slot().equals(o.slot()) && !forgetRequest(o.text())
                            && !same(c, mine, o.key(), gist(o.text()), o.embedding())).count();
            return new Found(new Evidence(sessions.size(), contradictions, false), same);
        }

        /** The newest {@link #HISTORY} candidates of other sessions on {@code slot} (null: without a slot). */
        private List<PromotionCandidate> history(String slot) {
            return histories.computeIfAbsent(Optional.ofNullable(slot), s -> (slot == null
                    ? PromotionCandidate.<PromotionCandidate> find("userId = ?1 and slot is null and sessionId <> ?2",
                            Sort.descending("id"), userId, sessionId)
                    : PromotionCandidate.<PromotionCandidate> find("userId = ?1 and slot = ?2 and sessionId <> ?3",
                            Sort.descending("id"), userId, slot, sessionId))
                    // read only: the end's flushes need not compare up to a thousand rows it never changes
                    .withHint(HibernateHints.HINT_READ_ONLY, true).page(0, HISTORY).list());
        }

        /** A request to forget says nothing for or against a fact: it is not evidence. */
        private boolean forgetRequest(String text) {
            return text != null && statements.markers().read(text).kind() == Reading.Kind.FORGET;
        }

        private Gist gist(String text) {
            return gists.computeIfAbsent(text == null ? "" : text, t -> new Gist(statements.markers(), t));
        }
    }

    /**
     * The same preference: equal keys; else not when the two say opposite things about the same words
     * ("I like aisle seats" / "I don't like aisle seats"); else embeddings at least
     * {@link PromotionConfig#sameSimilarity()} alike, or at least {@link #RELATED} alike while sharing
     * {@link #SAME_WORDS} of their topic words; without embeddings, sharing {@link #SAME_WORDS} of them.
     */
    boolean same(Candidate c, String otherKey, String otherText, float[] otherEmbedding) {
        return same(c, new Gist(statements.markers(), c.text()), otherKey,
                new Gist(statements.markers(), otherText == null ? "" : otherText), otherEmbedding);
    }

    /**
     * {@link #same(Candidate, String, String, float[])} with the candidate's gist read once for all
     * comparisons. The embeddings are compared first: two texts neither near nor related are different
     * whatever their words, so the marker patterns run only for the few pairs that are alike.
     */
    private boolean same(Candidate c, Gist mine, String otherKey, Gist other, float[] otherEmbedding) {
        if (c.key().equals(otherKey)) {
            return true;
        }
        if (c.embedding() == null || otherEmbedding == null) {
            return !opposed(mine, other) && mine.words(other) >= SAME_WORDS;
        }
        boolean near = profile.nearDuplicates(c.embedding(), otherEmbedding, config.sameSimilarity());
        boolean related = profile.nearDuplicates(c.embedding(), otherEmbedding, RELATED);
        if (!near && !related) {
            return false;
        }
        return !opposed(mine, other) && (near || related && mine.words(other) >= SAME_WORDS);
    }

    private static boolean opposed(Gist a, Gist b) {
        return a.negative() != b.negative() && a.words(b) >= OPPOSED_WORDS;
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
        if (cipher.on()) {
            // sealed keys do not compare in SQL: the user's PENDING candidates are compared here
            for (PromotionCandidate c : PromotionCandidate.<PromotionCandidate> list("userId = ?1 and status = ?2", userId,
                    CandidateStatus.PENDING)) {
                if (key.equals(c.candidateKey)) {
                    c.status = status;
                    c.decidedAt = at;
                }
            }
            return;
        }
        PromotionCandidate.update("status = ?1, decidedAt = ?2 where userId = ?3 and candidateKey = ?4 and status = ?5",
                status, at, userId, key, CandidateStatus.PENDING);
    }
}

package dev.mnemos.promotion;

import dev.mnemos.crypt.MemoryCipher;
import dev.mnemos.profile.Change;
import dev.mnemos.profile.NewFact;
import dev.mnemos.profile.ProfileAction;
import dev.mnemos.profile.ProfilePromotions;
import dev.mnemos.profile.ProfileTransaction;
import dev.mnemos.profile.WriteContext;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The user's "confirm button": candidates left PENDING at task end, which the user promotes
 * (with PROMOTE audit events, through the profile's merge path) or rejects. Every PENDING
 * candidate with the same key is settled together. A confirmed request to forget ("forget that I live in Boston")
 * forgets what it names, as a "forget …" instruction does, and is then gone with its copies.
 */
@ApplicationScoped
public class PendingCandidates {

    private final ProfilePromotions profile;
    private final EvidenceReader evidence;
    private final StatementReader statements;
    private final ProfileTransaction transaction;
    private final MemoryCipher cipher;

    public PendingCandidates(ProfilePromotions profile, EvidenceReader evidence, StatementReader statements,
            ProfileTransaction transaction, MemoryCipher cipher) {
        this.transaction = transaction;
        this.cipher = cipher;
        this.profile = profile;
        this.evidence = evidence;
        this.statements = statements;
    }

    /** At most {@code limit} PENDING candidates with an id above {@code afterId}, oldest first. */
    @Transactional
    public List<PendingCandidate> list(String userId, long afterId, int limit) {
        return PromotionCandidate.<PromotionCandidate> find("userId = ?1 and status = ?2 and id > ?3", Sort.by("id"), userId,
                CandidateStatus.PENDING, afterId).page(0, limit).list().stream().map(PromotionCandidate::view).toList();
    }

    /** The user's PENDING candidates, oldest first. */
    @Transactional
    public List<PendingCandidate> list(String userId) {
        return PromotionCandidate.<PromotionCandidate> list("userId = ?1 and status = ?2", Sort.by("id"), userId,
                CandidateStatus.PENDING).stream().map(PromotionCandidate::view).toList();
    }

    /**
     * Promotes the candidate. @throws CandidateNotFoundException unless it is the user's and PENDING;
     * {@link dev.mnemos.profile.ProfileFullException} when the profile holds its cap (nothing changes)
     */
    @Transactional
    public PendingDecision confirm(String userId, long candidateId, String actor) {
        profile.lock(userId);
        PromotionCandidate c = pending(userId, candidateId);
        Optional<String> forget = statements.markers().forgetTarget(c.text);
        if (forget.isPresent()) {
            PendingCandidate view = c.view();
            String key = c.candidateKey;
            List<Change> changes = new ArrayList<>(profile.forget(userId, actor, c.text, forget.get()));
            if (PromotionCandidate.count("userId = ?1 and id = ?2", userId, candidateId) > 0) {
                // the request quotes what it forgets: its text goes as a forgotten candidate's does
                changes.addAll(transaction.forgetText(WriteContext.direct(userId, actor,
                        "a request to forget, carried out"), c.slot, c.text, c.embedding));
            }
            if (cipher.on()) {
                // sealed keys do not compare in SQL
                PromotionCandidate.<PromotionCandidate> list("userId = ?1 and status = ?2", userId, CandidateStatus.PENDING)
                        .stream().filter(p -> key.equals(p.candidateKey)).forEach(PromotionCandidate::delete);
            } else {
                PromotionCandidate.delete("userId = ?1 and candidateKey = ?2 and status = ?3", userId, key,
                        CandidateStatus.PENDING);
            }
            return new PendingDecision(view, changes);
        }
        var changes = profile.confirm(userId, c.sessionId, actor, new NewFact(c.category, c.slot, c.text, 1.0),
                "confirmed by the user", statements.policy().markers());
        evidence.settle(userId, c.candidateKey, CandidateStatus.CONFIRMED, Instant.now());
        return new PendingDecision(c.view(), changes);
    }

    /** Rejects the candidate; nothing reaches the profile. @throws CandidateNotFoundException */
    @Transactional
    public PendingDecision reject(String userId, long candidateId, String actor) {
        profile.lock(userId);
        PromotionCandidate c = pending(userId, candidateId);
        evidence.settle(userId, c.candidateKey, CandidateStatus.REJECTED, Instant.now());
        var change = profile.record(new WriteContext(userId, actor, c.sessionId, WriteContext.Mode.DIRECT,
                ProfileAction.REJECT, null), ProfileAction.REJECT, c.text, "rejected by the user");
        return new PendingDecision(c.view(), List.of(change));
    }

    private static PromotionCandidate pending(String userId, long candidateId) {
        PromotionCandidate c = PromotionCandidate.<PromotionCandidate> find("userId = ?1 and id = ?2", userId, candidateId)
                .firstResult();
        if (c == null || c.status != CandidateStatus.PENDING) {
            throw new CandidateNotFoundException(candidateId);
        }
        return c;
    }
}

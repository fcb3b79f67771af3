package dev.mnemos.profile;

import dev.mnemos.llm.ReconcileModel;
import dev.mnemos.llm.ReconcileOp;
import dev.mnemos.llm.ReconcileRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The profile as the promotion feature uses it: hold the user's profile lock while candidates are
 * decided, write promoted facts through the locked three-way-merge path with PROMOTE audit events,
 * audit decisions that change no fact, and embed candidate texts to recognise the same preference
 * worded differently. Calls join the caller's transaction when there is one.
 */
@ApplicationScoped
public class ProfilePromotions {

    private final ProfileRepository repository;
    private final ProfileTransaction transaction;
    private final FactEmbeddings embeddings;
    private final ProfileConfig config;
    private final ReconcileModel model;

    public ProfilePromotions(ProfileRepository repository, ProfileTransaction transaction, FactEmbeddings embeddings,
            ProfileConfig config, ReconcileModel model) {
        this.model = model;
        this.repository = repository;
        this.transaction = transaction;
        this.embeddings = embeddings;
        this.config = config;
    }

    /** Whether Postgres answers at all. */
    public boolean reachable() {
        return repository.reachable();
    }

    /**
     * Locks the user's profile row ({@code SELECT … FOR UPDATE}, creating it on first use) until the
     * caller's transaction ends, so no other write of this user's profile interleaves.
     *
     * @throws jakarta.transaction.TransactionRequiredException without a transaction
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void lock(String userId) {
        repository.lock(userId);
    }

    /**
     * Writes promoted facts of session {@code sessionId} with PROMOTE audit events, through the
     * three-way merge under the user's lock. Automatic: the cap evicts rather than refuses.
     */
    public List<Change> promote(String userId, String sessionId, String actor, List<NewFact> facts, String reason) {
        return promote(userId, sessionId, actor, facts, reason, Stance.NONE);
    }

    /**
     * As {@link #promote(String, String, String, List, String)}; a new fact without a slot that
     * contradicts an active one ({@code stance}: same topic, opposite polarity) supersedes it — the
     * old fact gets {@code valid_to}, the audit names the fact replaced.
     */
    public List<Change> promote(String userId, String sessionId, String actor, List<NewFact> facts, String reason,
            Stance stance) {
        List<FactDraft> base = transaction.snapshot(userId);
        List<FactDraft> incoming = new ArrayList<>(base);
        Contradictions contradictions = new Contradictions(embeddings, config.contradictionSimilarity(),
                model.enabled() && stance.judges() ? this::replacedByModel : null, config.reconcileCandidates());
        for (NewFact f : facts) {
            FactDraft draft = FactDraft.of(f, SourceKind.PROMOTION, config);
            var old = contradictions.contradicted(draft, incoming, stance);
            if (old.isPresent()) {
                incoming.remove(old.get());
                draft = draft.replacing(old.get().id(), old.get().taskState());
            }
            incoming.add(draft);
        }
        WriteContext ctx = new WriteContext(userId, actor, sessionId, WriteContext.Mode.AUTOMATIC, ProfileAction.PROMOTE,
                reason);
        return transaction.apply(ctx, new ChangeSet(base, incoming, Set.of()));
    }

    /** The reconcile model's answer: the candidate an UPDATE or DELETE names, -1 for "no change", empty when unusable. */
    private Optional<Integer> replacedByModel(List<String> candidates, String incoming) {
        return model.reconcile(new ReconcileRequest(LocalDate.now(), candidates, incoming))
                .map(ops -> ops.stream().filter(op -> op.op() == ReconcileOp.Op.UPDATE || op.op() == ReconcileOp.Op.DELETE)
                        .map(ReconcileOp::id).filter(java.util.Objects::nonNull).findFirst().orElse(-1));
    }

    /** Writes one audit event that changes no fact (a candidate left pending, or rejected). */
    public Change record(WriteContext ctx, ProfileAction action, String text, String reason) {
        return transaction.record(ctx, action, text, reason);
    }

    /** The embedding of {@code text}, or null when embeddings are unavailable. */
    public float[] embed(String text) {
        return embeddings.embed(text);
    }

    /** Whether two embeddings are at least {@code min} alike (cosine); false when either is null. */
    public boolean nearDuplicates(float[] a, float[] b, double min) {
        return a != null && b != null && FactEmbeddings.cosine(a, b) >= min;
    }

    /** An embedding in the profile's storage format (null stays null). */
    public byte[] encode(float[] embedding) {
        return FactEmbeddings.encode(embedding);
    }

    /** An embedding read back from {@link #encode} (null stays null). */
    public float[] decode(byte[] stored) {
        return FactEmbeddings.decode(stored);
    }
}

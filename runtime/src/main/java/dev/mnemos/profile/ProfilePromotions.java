package dev.mnemos.profile;

import dev.mnemos.llm.ReconcileModel;
import dev.mnemos.llm.ReconcileOp;
import dev.mnemos.llm.ReconcileRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Transactional;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

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
    private final ForgottenTexts forgottenTexts;
    private final Reconciler reconciler;
    private final Event<ForgetAsked> forgetAsked;

    public ProfilePromotions(ProfileRepository repository, ProfileTransaction transaction, FactEmbeddings embeddings,
            ProfileConfig config, ReconcileModel model, ForgottenTexts forgottenTexts, Reconciler reconciler,
            Event<ForgetAsked> forgetAsked) {
        this.forgottenTexts = forgottenTexts;
        this.reconciler = reconciler;
        this.forgetAsked = forgetAsked;
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
     * What a promotion wrote; the facts (their indexes in the list given) left out because the profile is full; and
     * those held for the user's confirmation, with the reason: a session never changes a fact the user owns
     * ({@link SourceKind#ownedByUser()}), and two statements of one session that contradict each other both wait.
     */
    public record Promotion(List<Change> changes, Set<Integer> leftOut, Map<Integer, String> held) {
    }

    /**
     * Writes the facts a session end promotes, with PROMOTE audit events, through the three-way merge under the
     * user's lock. A new fact without a slot that contradicts an active one ({@code stance}: same topic, opposite
     * polarity) supersedes it — the old fact gets {@code valid_to}, the audit names the fact replaced — unless the
     * user owns the old fact: then the new one is held for the user's confirmation, as is a new value of a slot whose
     * holder the user owns. A new fact that says an active one again (same polarity, same topic words, or texts
     * {@link ProfileConfig#duplicateSimilarity()} alike) adds evidence to it instead of a second fact; two new facts
     * that contradict each other are both held. No fact is removed to make room: at the cap the facts that would add to
     * the count are left out. A fact the user forgot is not written ({@link ForgottenTexts}). {@code vectors} are the
     * facts' embeddings as the candidates had them (null where there is none), kept by a fact whose text is stored
     * unchanged, so no text is embedded twice; the active facts are read once, under the lock the caller's transaction
     * holds.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Promotion promote(String userId, String sessionId, String actor, List<NewFact> facts, List<float[]> vectors,
            String reason, Stance stance) {
        repository.lock(userId);
        List<ProfileFact> active = repository.activeFacts(userId);
        List<FactDraft> base = active.stream().map(FactDraft::of).toList();
        List<FactDraft> incoming = new ArrayList<>(base);
        Contradictions contradictions = contradictions(stance);
        Map<String, Integer> index = new HashMap<>();
        Map<Integer, String> held = new TreeMap<>();
        Map<FactDraft, Integer> drafted = new IdentityHashMap<>();
        for (int i = 0; i < facts.size(); i++) {
            FactDraft draft = withVector(FactDraft.of(facts.get(i), SourceKind.PROMOTION, config), facts.get(i),
                    vectors.get(i));
            List<FactDraft> earlier = incoming.stream().filter(FactDraft::isNew).toList();
            var rival = contradictions.contradictedAmong(draft, earlier, stance);
            if (rival.isPresent()) {
                held.put(i, SESSION_CONTRADICTS);
                held.put(drafted.get(rival.get()), SESSION_CONTRADICTS);
                incoming.remove(rival.get());
                restore(rival.get(), base, incoming);
                continue;
            }
            var same = contradictions.repeated(draft, incoming, stance, config.duplicateSimilarity());
            if (same.isPresent()) {
                // said again: the fact it repeats gains the evidence (or, repeating this session's own, it is that fact)
                draft = draft.saying(same.get().text());
            }
            var owned = ownedHolder(draft, incoming);
            if (owned.isPresent()) {
                held.put(i, "would replace fact " + owned.get().id() + " (" + owned.get().slot() + ")" + OWNED);
                continue;
            }
            var old = contradictions.contradicted(draft, incoming, stance);
            if (old.isPresent() && old.get().sourceKind() != null && old.get().sourceKind().ownedByUser()) {
                held.put(i, "contradicts fact " + old.get().id() + OWNED);
                continue;
            }
            if (old.isPresent()) {
                incoming.remove(old.get());
                draft = draft.replacing(old.get().id(), old.get().taskState());
            }
            index.putIfAbsent(draft.normalised(), i);
            drafted.put(draft, i);
            incoming.add(draft);
        }
        WriteContext ctx = new WriteContext(userId, actor, sessionId, WriteContext.Mode.PROMOTION, ProfileAction.PROMOTE,
                reason);
        ProfileTransaction.Applied applied = transaction.write(ctx, new ChangeSet(base, incoming, Set.of()), active);
        Set<Integer> leftOut = new TreeSet<>();
        applied.leftOut().stream().map(f -> index.get(f.normalised())).filter(Objects::nonNull).forEach(leftOut::add);
        return new Promotion(applied.changes(), leftOut, held);
    }

    /** Why a candidate waits when it would change a fact the user owns. */
    static final String OWNED = ", which you stated: a session never changes it; confirm this to replace it";
    /** Why two candidates of one session that contradict each other wait. */
    static final String SESSION_CONTRADICTS = "contradicts another statement of this session: confirm the one that holds";

    /** The fact on {@code draft}'s slot that the user owns, when the draft would give the slot another value. */
    private static Optional<FactDraft> ownedHolder(FactDraft draft, List<FactDraft> incoming) {
        return draft.slot() == null ? Optional.empty()
                : incoming.stream().filter(f -> !f.isNew() && draft.slot().equals(f.slot()) && f.sourceKind() != null
                        && f.sourceKind().ownedByUser() && !f.normalised().equals(draft.normalised())).findFirst();
    }

    /** A held draft that replaced an active fact gives it back. */
    private static void restore(FactDraft heldDraft, List<FactDraft> base, List<FactDraft> incoming) {
        if (heldDraft.replaces() != null) {
            base.stream().filter(f -> heldDraft.replaces().equals(f.id()) && !incoming.contains(f)).findFirst()
                    .ifPresent(incoming::add);
        }
    }

    private Contradictions contradictions(Stance stance) {
        return new Contradictions(embeddings, config.contradictionSimilarity(),
                model.enabled() && stance.judges() ? this::replacedByModel : null, config.reconcileCandidates());
    }

    /** The candidate's embedding on the fact it becomes, unless the fact's text was cut (another text). */
    private static FactDraft withVector(FactDraft draft, NewFact fact, float[] vector) {
        return vector != null && draft.text().equals(fact.text()) ? draft.withEmbedding(vector) : draft;
    }

    /**
     * Writes a candidate the user confirmed, with a PROMOTE audit event, as the user's own fact
     * ({@link SourceKind#CONFIRMED}): the user decides, so it replaces the fact it contradicts ({@code stance}), whoever
     * stated that one, and adds evidence to a fact it says again instead of a second one. @throws ProfileFullException
     * when the profile holds its cap of facts, as an add would
     */
    public List<Change> confirm(String userId, String sessionId, String actor, NewFact fact, String reason, Stance stance) {
        List<FactDraft> base = transaction.snapshot(userId);
        List<FactDraft> incoming = new ArrayList<>(base);
        FactDraft draft = FactDraft.of(fact, SourceKind.CONFIRMED, config);
        draft = draft.withEmbedding(embeddings.embed(draft.text()));
        Contradictions contradictions = new Contradictions(embeddings, config.contradictionSimilarity(), null,
                config.reconcileCandidates());
        var same = contradictions.repeated(draft, incoming, stance, config.duplicateSimilarity());
        if (same.isPresent()) {
            draft = draft.saying(same.get().text());
        } else {
            var old = contradictions.contradicted(draft, incoming, stance);
            if (old.isPresent()) {
                incoming.remove(old.get());
                draft = draft.replacing(old.get().id(), old.get().taskState());
            }
        }
        incoming.add(draft);
        WriteContext ctx = new WriteContext(userId, actor, sessionId, WriteContext.Mode.DIRECT, ProfileAction.PROMOTE,
                reason);
        return transaction.apply(ctx, new ChangeSet(base, incoming, Set.of()));
    }

    /**
     * Carries out a request to forget that the user confirmed ({@code request}, said in a session; {@code target}, what
     * it names) as a "forget …" instruction is ({@link ProfileService#instruct}): the fact it names goes (its slot, a
     * fact holding its words, or the nearest by embedding), then what the user said outside the facts that matches it
     * ({@link ForgetAsked}). Joins the caller's transaction, which holds the user's lock.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<Change> forget(String userId, String actor, String request, String target) {
        List<FactDraft> base = transaction.snapshot(userId);
        Reconciler.Plan plan = reconciler.plan(base, new Instruction.Forget(request, target), SourceKind.INSTRUCTION,
                config.directConfidence());
        WriteContext ctx = WriteContext.automatic(userId, actor,
                "a request to forget, confirmed by the user (" + plan.path() + ")");
        List<Change> changes = new ArrayList<>(transaction.apply(ctx, plan.changes()));
        forgetAsked.fire(new ForgetAsked(userId, actor, target,
                changes.stream().anyMatch(c -> c.action() == ProfileAction.FORGET), changes::addAll));
        return changes;
    }

    /** Most active facts a profile holds ({@link ProfileConfig#maxFacts()}). */
    public int maxFacts() {
        return config.maxFacts();
    }

    /** What the user forgot, to leave out of the candidates before they are decided. */
    public Tombstones forgotten(String userId) {
        return forgottenTexts.of(userId);
    }

    /** The reconcile model's answer: the candidate an UPDATE or DELETE names, -1 for "no change", empty when unusable. */
    private Optional<Integer> replacedByModel(List<String> candidates, String incoming) {
        return model.reconcile(new ReconcileRequest(LocalDate.now(), candidates, incoming))
                .map(ops -> ops.stream().filter(op -> op.op() == ReconcileOp.Op.UPDATE || op.op() == ReconcileOp.Op.DELETE)
                        .map(ReconcileOp::id).filter(Objects::nonNull).findFirst().orElse(-1));
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

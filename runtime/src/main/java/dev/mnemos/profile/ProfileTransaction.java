package dev.mnemos.profile;

import dev.mnemos.session.Idempotency;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The one write path of the profile: lock the user's row, three-way-merge what the writer read,
 * what it wants and what is there now, settle duplicates and slots, enforce the cap, write the
 * difference and its audit events, bump the revision — in one transaction; after the commit the
 * revision's copy in Redis is raised ({@link ProfileRevisions}). Joins the caller's
 * transaction when there is one (promotion writes the profile and its archive together).
 * {@link ProfileWriter} is the guarded entry point for everyone else.
 */
@ApplicationScoped
public class ProfileTransaction {

    /** Why a promoted or imported fact was dropped: the user forgot it (the event does not quote it). */
    public static final String FORGOTTEN = "forgotten by the user: only the user's own statement adds it again";

    private final ProfileRepository repository;
    private final ProfileConfig config;
    private final FactEmbeddings embeddings;
    private final ProfileForgetting forgetting;
    private final Event<ProfileRevised> revised;
    private final ProfileRequests requests;
    private final ForgottenTexts forgottenTexts;

    public ProfileTransaction(ProfileRepository repository, ProfileConfig config, FactEmbeddings embeddings,
            ProfileForgetting forgetting, Event<ProfileRevised> revised, ProfileRequests requests,
            ForgottenTexts forgottenTexts) {
        this.forgottenTexts = forgottenTexts;
        this.revised = revised;
        this.requests = requests;
        this.repository = repository;
        this.config = config;
        this.embeddings = embeddings;
        this.forgetting = forgetting;
    }

    /** The user's active facts as drafts, with embeddings: the base of a write. */
    @Transactional
    public List<FactDraft> snapshot(String userId) {
        return repository.activeFacts(userId).stream().map(FactDraft::of).toList();
    }

    /** The user's active facts as served. */
    @Transactional
    public List<ActiveFact> active(String userId) {
        return repository.activeFacts(userId).stream().map(ProfileFact::view).toList();
    }

    /** At most {@code limit} audit events older than event {@code beforeId}, newest first. */
    @Transactional
    public List<HistoryEntry> history(String userId, long beforeId, int limit) {
        return repository.history(userId, beforeId, limit).stream().map(ProfileEvent::view).toList();
    }

    /** The newest audit events, newest first. */
    @Transactional
    public List<HistoryEntry> history(String userId, int limit) {
        return repository.history(userId, limit).stream().map(ProfileEvent::view).toList();
    }

    /** What a write changed, and the new facts a {@code PROMOTION} write left out for lack of room. */
    public record Applied(List<Change> changes, List<FactDraft> leftOut) {
    }

    /** Applies {@code changes}; joins the caller's transaction when there is one. */
    @Transactional
    public List<Change> apply(WriteContext ctx, ChangeSet changes) {
        return write(ctx, changes).changes();
    }

    /**
     * Applies {@code changes} and says which new facts were left out ({@link WriteContext.Mode#PROMOTION} at the cap);
     * joins the caller's transaction when there is one.
     */
    @Transactional
    public Applied write(WriteContext ctx, ChangeSet changes) {
        return write(ctx, changes, null);
    }

    /**
     * {@link #write(WriteContext, ChangeSet)} with the user's active facts as the caller read them in this
     * transaction, under the user's lock (null: read them here); a write that forgets facts reads them again.
     */
    @Transactional
    public Applied write(WriteContext ctx, ChangeSet changes, List<ProfileFact> active) {
        ProfileOwner owner = repository.lock(ctx.userId());
        Instant now = Instant.now();
        List<Change> report = new ArrayList<>();
        changes.forget().forEach(id -> repository.find(ctx.userId(), id)
                .ifPresent(f -> report.addAll(forgetting.forget(f, ctx, now))));
        ChangeSet wanted = unforgotten(ctx, changes, report, now);
        List<ProfileFact> facts = active != null && changes.forget().isEmpty() ? active
                : repository.activeFacts(ctx.userId());
        Map<Long, ProfileFact> current = facts.stream().collect(Collectors.toMap(f -> f.id, Function.identity()));
        List<FactDraft> merged = ThreeWayMerge.merge(wanted.base(), wanted.incoming(),
                current.values().stream().sorted(Comparator.comparing(f -> f.id)).map(FactDraft::of).toList(),
                FactDraft::key);
        Resolution resolution = Resolution.of(merged);
        List<FactDraft> leftOut = new ArrayList<>();
        List<FactDraft> keep = enforceCap(ctx, resolution.keep(), current, report, leftOut, now);
        resolution.duplicates().forEach((id, count) -> report.add(confirm(current.get(id), count, ctx, now)));
        Set<Long> kept = keep.stream().filter(f -> !f.isNew()).map(FactDraft::id).collect(Collectors.toSet());
        Set<Long> replaced = keep.stream().filter(FactDraft::isNew).map(FactDraft::replaces).collect(Collectors.toSet());
        for (ProfileFact fact : current.values()) {
            if (!kept.contains(fact.id) && fact.active()) {
                supersede(fact, now);
                if (!replaced.contains(fact.id)) {
                    report.add(ProfileAudit.audit(ctx, fact.id, ProfileAction.DELETE, fact.text, null, "removed", now));
                }
            }
        }
        Panache.getEntityManager().flush();
        for (FactDraft draft : keep) {
            if (draft.isNew()) {
                report.add(insert(draft, current.get(draft.replaces()), ctx, now));
            }
        }
        if (!report.isEmpty()) {
            bump(owner);
        }
        return new Applied(report, leftOut);
    }

    /**
     * Forget is final: a new fact the user states lifts what it says again from the forgotten texts; a promoted or
     * imported one that says a forgotten text again is dropped, with a REJECT event that does not quote it (a fact
     * it was to replace stays).
     */
    private ChangeSet unforgotten(WriteContext ctx, ChangeSet changes, List<Change> report, Instant now) {
        Tombstones forgotten = forgottenTexts.of(ctx.userId());
        if (forgotten.isEmpty()) {
            return changes;
        }
        List<FactDraft> incoming = new ArrayList<>();
        for (FactDraft draft : changes.incoming()) {
            if (!draft.isNew()) {
                incoming.add(draft);
            } else if (draft.sourceKind().statedByUser()) {
                forgottenTexts.lift(ctx.userId(), forgotten, draft.text(), draft.embedding());
                incoming.add(draft);
            } else if (forgotten.covers(draft.text(), draft.embedding())) {
                report.add(ProfileAudit.audit(ctx, null, ProfileAction.REJECT, null, null, FORGOTTEN, now));
                changes.base().stream().filter(f -> draft.replaces() != null && draft.replaces().equals(f.id()))
                        .forEach(incoming::add);
            } else {
                incoming.add(draft);
            }
        }
        return new ChangeSet(changes.base(), incoming, changes.forget());
    }

    /**
     * {@link #apply} at most once per Idempotency-Key of the user: under the user's lock, a key already recorded
     * answers its record and writes nothing; else the write and its record commit together ({@link ProfileRequests}).
     */
    @Transactional
    public ProfileRequests.Outcome applyOnce(WriteContext ctx, ChangeSet changes, Idempotency idem, Reconciler.Path path) {
        repository.lock(ctx.userId());
        Optional<ProfileRequests.Outcome> repeat = requests.repeat(ctx.userId(), idem);
        if (repeat.isPresent()) {
            return repeat.get();
        }
        return recorded(ctx, idem, path, apply(ctx, changes));
    }

    /** {@link #forget(WriteContext, long)} at most once per Idempotency-Key of the user, as {@link #applyOnce}. */
    @Transactional
    public ProfileRequests.Outcome forgetOnce(WriteContext ctx, long factId, Idempotency idem) {
        repository.lock(ctx.userId());
        Optional<ProfileRequests.Outcome> repeat = requests.repeat(ctx.userId(), idem);
        if (repeat.isPresent()) {
            return repeat.get();
        }
        return recorded(ctx, idem, Reconciler.Path.DETERMINISTIC, forget(ctx, factId));
    }

    private ProfileRequests.Outcome recorded(WriteContext ctx, Idempotency idem, Reconciler.Path path, List<Change> report) {
        // a request that made Mnemos forget a fact may quote its text (an instruction "forget that …"): no digest of it
        boolean forgot = report.stream().anyMatch(c -> c.action() == ProfileAction.FORGET);
        requests.record(ctx.userId(), idem, !forgot, path, report);
        return new ProfileRequests.Outcome(report, path);
    }

    /** Writes one audit event that changes no fact (a pending or rejected promotion); joins the caller's transaction. */
    @Transactional
    public Change record(WriteContext ctx, ProfileAction action, String text, String reason) {
        return ProfileAudit.audit(ctx, null, action, null, text, reason, Instant.now());
    }

    /** Removes a fact's text from every table (and its slot's superseded history); the audit keeps a FORGET event. */
    @Transactional
    public List<Change> forget(WriteContext ctx, long factId) {
        ProfileOwner owner = repository.lock(ctx.userId());
        ProfileFact fact = repository.find(ctx.userId(), factId).orElseThrow(() -> new FactNotFoundException(factId));
        List<Change> report = forgetting.forget(fact, ctx, Instant.now());
        bump(owner);
        return report;
    }

    /** The profile changed: its revision grows, and its copy in Redis follows after the commit ({@link ProfileRevisions}). */
    private void bump(ProfileOwner owner) {
        owner.revision++;
        revised.fire(new ProfileRevised(owner.userId, owner.revision));
    }

    /**
     * Forgets a text the profile does not hold as a fact (a promotion candidate's, reached by a "forget …"
     * instruction): it is recorded as forgotten ({@code embedding} in stored form, may be null), every copy is
     * removed as for a fact ({@link FactForgotten} with no fact id) and a FORGET event without the text is audited.
     * Joins the caller's transaction, which holds the user's lock.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public List<Change> forgetText(WriteContext ctx, String slot, String text, byte[] embedding) {
        return forgetting.forgetText(ctx, slot, text, embedding);
    }

    private List<FactDraft> enforceCap(WriteContext ctx, List<FactDraft> keep, Map<Long, ProfileFact> current,
            List<Change> report, List<FactDraft> leftOut, Instant now) {
        int excess = keep.size() - config.maxFacts();
        if (excess <= 0) {
            return keep;
        }
        if (ctx.mode() == WriteContext.Mode.DIRECT) {
            throw new ProfileFullException(config.maxFacts());
        }
        if (ctx.mode() == WriteContext.Mode.PROMOTION) {
            return leaveOut(keep, excess, leftOut);
        }
        List<FactDraft> victims = keep.stream()
                .sorted(Comparator.comparing(FactDraft::isNew).thenComparingDouble(FactDraft::confidence)
                        .thenComparing(f -> f.isNew() ? now : current.get(f.id()).updatedAt))
                .limit(excess).toList();
        Set<FactDraft> evicted = new HashSet<>(victims);
        for (FactDraft victim : victims) {
            String reason = "evicted: the profile holds at most " + config.maxFacts() + " active facts";
            if (victim.isNew()) {
                report.add(ProfileAudit.audit(ctx, null, ProfileAction.REJECT, null, victim.text(), reason, now));
            } else {
                supersede(current.get(victim.id()), now);
                report.add(ProfileAudit.audit(ctx, victim.id(), ProfileAction.DELETE, victim.text(), null, reason, now));
            }
        }
        return keep.stream().filter(f -> !evicted.contains(f)).toList();
    }

    /**
     * A promotion removes no fact to make room: the last new facts that add to the count (not those replacing one)
     * are left out, as many as the profile is over its cap, all of them when it is over without them.
     */
    private static List<FactDraft> leaveOut(List<FactDraft> keep, int excess, List<FactDraft> leftOut) {
        List<FactDraft> adding = keep.stream().filter(f -> f.isNew() && f.replaces() == null).toList();
        leftOut.addAll(adding.subList(Math.max(0, adding.size() - excess), adding.size()));
        Set<FactDraft> out = Collections.newSetFromMap(new IdentityHashMap<>());
        out.addAll(leftOut);
        return keep.stream().filter(f -> !out.contains(f)).toList();
    }

    private Change confirm(ProfileFact fact, int count, WriteContext ctx, Instant now) {
        fact.evidenceCount += count;
        fact.updatedAt = now;
        return ProfileAudit.audit(ctx, fact.id, ProfileAction.MERGE, fact.text, fact.text,
                "already known; evidence " + fact.evidenceCount, now);
    }

    private Change insert(FactDraft draft, ProfileFact replaced, WriteContext ctx, Instant now) {
        ProfileFact fact = new ProfileFact();
        fact.userId = ctx.userId();
        fact.category = draft.category();
        fact.slot = draft.slot();
        fact.text = draft.text();
        fact.confidence = draft.confidence();
        fact.evidenceCount = replaced == null ? 1 : replaced.evidenceCount;
        fact.sourceSessionId = draft.sessionId() != null ? draft.sessionId() : ctx.sessionId();
        fact.sourceKind = draft.sourceKind();
        fact.taskState = replaced == null ? draft.taskState() : TaskState.carry(replaced.taskState, draft.taskState());
        fact.status = FactStatus.ACTIVE;
        fact.validFrom = now;
        fact.createdAt = now;
        fact.updatedAt = now;
        fact.embedding = FactEmbeddings.encode(draft.embedding() != null ? draft.embedding() : embeddings.embed(draft.text()));
        fact.persist();
        if (replaced != null) {
            return ProfileAudit.audit(ctx, fact.id,
                    ctx.addAction() == ProfileAction.PROMOTE ? ProfileAction.PROMOTE : ProfileAction.UPDATE,
                    replaced.text, fact.text,
                    ProfileAudit.REPLACES + replaced.id + (ctx.reason() == null ? "" : "; " + ctx.reason()), now);
        }
        return ProfileAudit.audit(ctx, fact.id, ctx.addAction(), null, fact.text, ctx.reason(), now);
    }

    private static void supersede(ProfileFact fact, Instant now) {
        fact.status = FactStatus.SUPERSEDED;
        fact.validTo = now;
        fact.updatedAt = now;
    }

}

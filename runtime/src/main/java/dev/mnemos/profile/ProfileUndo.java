package dev.mnemos.profile;

import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Reverts the profile changes one session's end made (its promotion), for the promotion feature, in the caller's
 * transaction under the user's lock: a fact the end added is retracted (SUPERSEDED from now on, its validity
 * closed); a fact it superseded or removed is restored (ACTIVE again with its {@code valid_from}; the RESTORE event
 * keeps the {@code valid_to} it had, where the gap in its validity starts); an evidence count it raised is put
 * back. One UNDO event opens the undo; every revert is an event naming the event it undoes; all carry the session's
 * id and one instant, by which a repeat finds them.
 * <p>
 * Forget wins: a fact the user forgot is never restored, nor one whose text the user forgot. A later change to a
 * fact at stake (a later event on it, its slot taken, it superseded again) refuses the undo
 * ({@link UndoConflictException}, nothing written) unless forced; forced, what a later change made stays as it made
 * it, and the rest is reverted.
 */
@ApplicationScoped
public class ProfileUndo {

    /** Why a fact at stake was left alone: it is gone, and forgetting is final. */
    public static final String FORGOTTEN = "forgotten by the user: stays forgotten";

    private final ProfileRepository repository;
    private final ForgottenTexts forgottenTexts;
    private final ProfileConfig config;
    private final Event<ProfileRevised> revised;

    public ProfileUndo(ProfileRepository repository, ForgottenTexts forgottenTexts, ProfileConfig config,
            Event<ProfileRevised> revised) {
        this.repository = repository;
        this.forgottenTexts = forgottenTexts;
        this.config = config;
        this.revised = revised;
    }

    /**
     * What an undo wrote ({@code changes}, oldest first, its UNDO event first) at {@code at}, and what it left alone;
     * {@code repeated}: written by an earlier undo.
     */
    public record Reverted(Instant at, List<Change> changes, List<KeptFact> kept, boolean repeated) {
    }

    private enum Kind {
        RETRACT,
        RESTORE,
        UNCOUNT
    }

    /** One revert: of {@code undoes}, an event of the end, on fact {@code factId}. */
    private record Step(Kind kind, ProfileEvent undoes, long factId) {
    }

    /**
     * What the undo of {@code sessionId}'s promotion wrote, when it was undone already (its facts left alone are not
     * recorded: {@code kept} is empty); else empty.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Optional<Reverted> undone(String userId, String sessionId) {
        ProfileEvent opened = ProfileEvent.<ProfileEvent> find(
                "userId = ?1 and sessionId = ?2 and action = ?3 and factId is null", Sort.by("id"), userId, sessionId,
                ProfileAction.UNDO).firstResult();
        if (opened == null) {
            return Optional.empty();
        }
        List<ProfileEvent> events = ProfileEvent.list("userId = ?1 and sessionId = ?2 and id >= ?3 and at = ?4",
                Sort.by("id"), userId, sessionId, opened.id, opened.at);
        return Optional.of(new Reverted(opened.at, events.stream().map(ProfileUndo::change).toList(), List.of(), true));
    }

    /**
     * Reverts what the end's events {@code eventIds} changed and drops its pending candidates ({@code dropped}, their
     * texts, audited as REJECT). @throws UndoConflictException unless {@code force}, when a later change touched a
     * fact at stake; nothing is written then
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public Reverted revert(String userId, String sessionId, String actor, List<Long> eventIds, List<String> dropped,
            boolean force) {
        ProfileOwner owner = repository.lock(userId);
        List<ProfileEvent> made = eventIds.isEmpty() ? List.of()
                : ProfileEvent.list("userId = ?1 and id in ?2", Sort.by("id"), userId, eventIds);
        long last = made.stream().mapToLong(e -> e.id).max().orElse(0);
        List<Step> steps = steps(made);
        Map<Long, ProfileFact> facts = new LinkedHashMap<>();
        steps.forEach(s -> repository.find(userId, s.factId()).ifPresent(f -> facts.put(f.id, f)));
        Set<Long> retracting = new HashSet<>();
        steps.stream().filter(s -> s.kind() == Kind.RETRACT).forEach(s -> retracting.add(s.factId()));

        List<KeptFact> conflicts = new ArrayList<>();
        for (Step step : steps) {
            ProfileFact fact = facts.get(step.factId());
            if (fact != null) {
                conflict(step, fact, last, retracting).ifPresent(why -> conflicts.add(new KeptFact(fact.id, why)));
            }
        }
        if (!conflicts.isEmpty() && !force) {
            throw new UndoConflictException(sessionId, conflicts);
        }
        return apply(owner, sessionId, actor, steps, facts, conflicts, dropped);
    }

    private Reverted apply(ProfileOwner owner, String sessionId, String actor, List<Step> steps,
            Map<Long, ProfileFact> facts, List<KeptFact> conflicts, List<String> dropped) {
        String userId = owner.userId;
        Instant now = Instant.now();
        Map<Long, String> conflicted = new LinkedHashMap<>();
        conflicts.forEach(c -> conflicted.putIfAbsent(c.factId(), c.reason()));
        List<KeptFact> kept = new ArrayList<>();
        List<Change> changes = new ArrayList<>();
        String reason = "undid the promotion of session " + sessionId
                + (conflicted.isEmpty() ? "" : "; forced over later changes to facts " + conflicted.keySet());
        changes.add(audit(owner, actor, sessionId, null, ProfileAction.UNDO, null, null, reason, null, null, now));
        boolean changed = false;
        Set<Long> retracted = new HashSet<>();
        for (Step step : steps.stream().filter(s -> s.kind() == Kind.RETRACT).toList()) {
            ProfileFact fact = facts.get(step.factId());
            if (fact == null) {
                kept.add(new KeptFact(step.factId(), FORGOTTEN));
            } else if (!fact.active()) {
                kept.add(new KeptFact(fact.id, conflicted.getOrDefault(fact.id, "no longer active")));
            } else {
                fact.status = FactStatus.SUPERSEDED;
                fact.validTo = now;
                fact.updatedAt = now;
                retracted.add(fact.id);
                changes.add(audit(owner, actor, sessionId, fact.id, ProfileAction.RETRACT, fact.text, null,
                        "promoted by session " + sessionId + ", whose promotion was undone", step.undoes().id, null, now));
                changed = true;
            }
        }
        Panache.getEntityManager().flush(); // the slots the retracted facts held are free for the restored ones
        Tombstones forgotten = forgottenTexts.of(userId);
        int active = repository.activeFacts(userId).size();
        for (Step step : steps.stream().filter(s -> s.kind() != Kind.RETRACT).toList()) {
            ProfileFact fact = facts.get(step.factId());
            Optional<String> keep = fact == null ? Optional.of(FORGOTTEN) : unchangeable(step, fact, forgotten, active);
            if (keep.isPresent()) {
                kept.add(new KeptFact(step.factId(), conflicted.getOrDefault(step.factId(), keep.get())));
                continue;
            }
            if (step.kind() == Kind.RESTORE) {
                Instant prior = fact.validTo;
                fact.status = FactStatus.ACTIVE;
                fact.validTo = null;
                fact.updatedAt = now;
                active++;
                Panache.getEntityManager().flush();
                changes.add(audit(owner, actor, sessionId, fact.id, ProfileAction.RESTORE, null, fact.text,
                        "superseded by the promotion of session " + sessionId + ", which was undone", step.undoes().id,
                        prior, now));
            } else {
                fact.evidenceCount = Math.max(1, fact.evidenceCount - 1);
                fact.updatedAt = now;
                changes.add(audit(owner, actor, sessionId, fact.id, ProfileAction.UNDO, fact.text, fact.text,
                        "evidence back to " + fact.evidenceCount + ": the promotion of session " + sessionId
                                + " was undone",
                        step.undoes().id, null, now));
            }
            changed = true;
        }
        for (String text : dropped) {
            changes.add(audit(owner, actor, sessionId, null, ProfileAction.REJECT, null, text,
                    "pending candidate dropped: the promotion of session " + sessionId + " was undone", null, null, now));
        }
        if (changed) {
            owner.revision++;
            revised.fire(new ProfileRevised(userId, owner.revision));
        }
        return new Reverted(now, changes, kept, false);
    }

    /** Why a restore or an evidence count cannot be applied now (forced past a conflict, or forgotten); else empty. */
    private Optional<String> unchangeable(Step step, ProfileFact fact, Tombstones forgotten, int active) {
        if (step.kind() == Kind.UNCOUNT) {
            return fact.active() ? Optional.empty() : Optional.of("no longer active");
        }
        if (fact.active()) {
            return Optional.of("active again");
        }
        if (forgotten.covers(fact.text, FactEmbeddings.decode(fact.embedding))) {
            return Optional.of(FORGOTTEN);
        }
        Optional<ProfileFact> holder = slotHolder(fact, Set.of());
        if (holder.isPresent()) {
            return Optional.of("its slot " + fact.slot + " is held by fact " + holder.get().id);
        }
        if (active >= config.maxFacts()) {
            return Optional.of("the profile holds its maximum of " + config.maxFacts() + " active facts");
        }
        return Optional.empty();
    }

    /** A later change to {@code fact}, described; empty when none touched it since the end. */
    private Optional<String> conflict(Step step, ProfileFact fact, long last, Set<Long> retracting) {
        Optional<ProfileEvent> later = ProfileEvent.<ProfileEvent> find("userId = ?1 and factId = ?2 and id > ?3",
                Sort.by("id"), fact.userId, fact.id, last).firstResultOptional();
        if (later.isPresent()) {
            return Optional.of("changed since by " + ChangeCauses.describe(later.get()));
        }
        if (step.kind() != Kind.RESTORE) {
            return fact.active() ? Optional.empty()
                    : Optional.of("no longer active: ended by "
                            + ChangeCauses.ended(fact).map(ChangeCauses::describe).orElse("a later change"));
        }
        if (fact.active() || !Objects.equals(fact.validTo, step.undoes().at)) {
            return Optional.of("changed since the session ended");
        }
        return slotHolder(fact, retracting).map(h -> "its slot " + fact.slot + " is held by fact " + h.id + ", made by "
                + ChangeCauses.started(ChangeCauses.at(h.userId, List.of(h.validFrom)).getOrDefault(h.validFrom, List.of()),
                        h.id).map(ChangeCauses::describe).orElse("a later change"));
    }

    /** The active fact, other than those in {@code leaving}, holding {@code fact}'s slot. */
    private Optional<ProfileFact> slotHolder(ProfileFact fact, Set<Long> leaving) {
        if (fact.slot == null) {
            return Optional.empty();
        }
        return repository.slotHistory(fact.userId, fact.slot).stream()
                .filter(f -> f.active() && !f.id.equals(fact.id) && !leaving.contains(f.id)).findFirst();
    }

    /** The reverts of the end's events: a fact it added, one it replaced or removed, evidence it added. */
    private static List<Step> steps(List<ProfileEvent> made) {
        List<Step> steps = new ArrayList<>();
        for (ProfileEvent e : made) {
            if (e.factId == null) {
                continue;
            }
            switch (e.action) {
                case ADD, PROMOTE, UPDATE -> {
                    steps.add(new Step(Kind.RETRACT, e, e.factId));
                    ChangeCauses.replaced(e).ifPresent(id -> steps.add(new Step(Kind.RESTORE, e, id)));
                }
                case DELETE -> steps.add(new Step(Kind.RESTORE, e, e.factId));
                case MERGE -> steps.add(new Step(Kind.UNCOUNT, e, e.factId));
                default -> {
                }
            }
        }
        return steps;
    }

    private static Change audit(ProfileOwner owner, String actor, String sessionId, Long factId, ProfileAction action,
            String before, String after, String reason, Long undoes, Instant priorValidTo, Instant now) {
        ProfileEvent event = new ProfileEvent();
        event.userId = owner.userId;
        event.factId = factId;
        event.action = action;
        event.before = before;
        event.after = after;
        event.reason = reason;
        event.actor = actor;
        event.sessionId = sessionId;
        event.undoes = undoes;
        event.priorValidTo = priorValidTo;
        event.at = now;
        event.persist();
        return change(event);
    }

    private static Change change(ProfileEvent e) {
        return new Change(e.action, e.factId, e.before, e.after, e.reason, e.id);
    }
}

package dev.mnemos.profile;

import dev.mnemos.session.Idempotency;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The user profile: read it, add / correct / forget facts, follow natural-language instructions.
 * Every write goes through the locked three-way-merge path of {@link ProfileTransaction} and leaves
 * audit events. Promotions from ended sessions come in through {@link ProfilePromotions}.
 */
@ApplicationScoped
public class ProfileService {

    private final ProfileReader reader;
    private final ProfileWriter writer;
    private final Reconciler reconciler;
    private final ProfileConfig config;
    private final ProfileRequests requests;
    private final Event<ForgetAsked> forgetAsked;

    public ProfileService(ProfileReader reader, ProfileWriter writer, Reconciler reconciler, ProfileConfig config,
            ProfileRequests requests, Event<ForgetAsked> forgetAsked) {
        this.requests = requests;
        this.forgetAsked = forgetAsked;
        this.reader = reader;
        this.writer = writer;
        this.reconciler = reconciler;
        this.config = config;
    }

    /**
     * The user's ACTIVE facts, oldest first; empty for a user without a profile. Cached and
     * revalidated against the profile's revision, so a completed write is always seen. Immutable.
     */
    public List<ActiveFact> activeFacts(String userId) {
        return reader.activeFacts(userId);
    }

    /** One page of the audit trail: at most {@code limit} events older than event {@code beforeId}, newest first. */
    public List<HistoryEntry> history(String userId, long beforeId, int limit) {
        return reader.history(userId, beforeId, limit);
    }

    /** The audit trail, newest first, at most {@code mnemos.profile.history-limit} events. */
    public List<HistoryEntry> history(String userId) {
        return reader.history(userId);
    }

    /** Adds a fact the user stated. @throws InvalidFactException, ProfileFullException */
    public WriteResult add(String userId, String actor, NewFact fact) {
        return add(userId, actor, fact, null);
    }

    /**
     * {@link #add(String, String, NewFact)}, at most once per {@code idem} (null: no key): a repeat writes nothing and
     * answers the first write's changes ({@link ProfileRequests}). @throws dev.mnemos.session.IdempotencyKeyReusedException
     * when the key came with another request
     */
    public WriteResult add(String userId, String actor, NewFact fact, Idempotency idem) {
        new FactValidator(config).fact(fact);
        Optional<WriteResult> repeat = repeated(userId, idem);
        if (repeat.isPresent()) {
            return repeat.get();
        }
        List<FactDraft> base = reader.snapshot(userId);
        List<FactDraft> incoming = new ArrayList<>(base);
        incoming.add(draft(fact, SourceKind.USER_STATEMENT));
        return write(WriteContext.direct(userId, actor, "stated by the user"), new ChangeSet(base, incoming, Set.of()),
                Reconciler.Path.DETERMINISTIC, idem);
    }

    /** Replaces an active fact with the corrected one; the old one is kept as SUPERSEDED. @throws FactNotFoundException */
    public WriteResult correct(String userId, String actor, long factId, NewFact fact) {
        return correct(userId, actor, factId, fact, null);
    }

    /** {@link #correct(String, String, long, NewFact)}, at most once per {@code idem} (null: no key), as {@link #add}. */
    public WriteResult correct(String userId, String actor, long factId, NewFact fact, Idempotency idem) {
        new FactValidator(config).fact(fact);
        Optional<WriteResult> repeat = repeated(userId, idem);
        if (repeat.isPresent()) {
            return repeat.get();
        }
        List<FactDraft> base = reader.snapshot(userId);
        FactDraft old = base.stream().filter(f -> f.id() == factId).findFirst()
                .orElseThrow(() -> new FactNotFoundException(factId));
        List<FactDraft> incoming = new ArrayList<>(base);
        incoming.remove(old);
        incoming.add(draft(fact, SourceKind.USER_STATEMENT).replacing(old.id(), old.taskState()));
        return write(WriteContext.direct(userId, actor, "corrected by the user"), new ChangeSet(base, incoming, Set.of()),
                Reconciler.Path.DETERMINISTIC, idem);
    }

    /** Removes the fact's text from every table; the audit trail keeps a FORGET event without it. */
    public WriteResult forget(String userId, String actor, long factId) {
        return forget(userId, actor, factId, null);
    }

    /**
     * {@link #forget(String, String, long)}, at most once per {@code idem} (null: no key), as {@link #add}: a repeat
     * answers the first forget's changes instead of 404.
     */
    public WriteResult forget(String userId, String actor, long factId, Idempotency idem) {
        WriteContext ctx = WriteContext.direct(userId, actor, "forgotten at the user's request");
        if (idem == null) {
            return result(writer.forget(ctx, factId), Reconciler.Path.DETERMINISTIC, userId);
        }
        Optional<WriteResult> repeat = repeated(userId, idem);
        return repeat.orElseGet(() -> result(writer.forgetOnce(ctx, factId, idem), userId));
    }

    /** Follows "remember …", "forget …", "I no longer …", "以后用中文回答" and the like. */
    public WriteResult instruct(String userId, String actor, String instruction) {
        return instruct(userId, actor, instruction, null);
    }

    /**
     * {@link #instruct(String, String, String)}, at most once per {@code idem} (null: no key), as {@link #add}: a
     * repeat does not ask the model again.
     */
    public WriteResult instruct(String userId, String actor, String instruction, Idempotency idem) {
        new FactValidator(config).input("instruction", instruction);
        Instruction parsed = Instruction.parse(instruction.strip());
        if (parsed instanceof Instruction.Remember r && r.text().isBlank()) {
            throw new InvalidFactException("instruction", "something to remember after 'remember'");
        }
        String fact = parsed instanceof Instruction.Remember r ? r.text()
                : parsed instanceof Instruction.NoLonger n ? n.original() : "";
        if (fact.length() > config.maxFactChars()) {
            // as POST /v1/profile/facts refuses it: a fact is never cut to fit
            throw new InvalidFactException("instruction", "a fact of at most " + config.maxFactChars()
                    + " characters, got " + fact.length());
        }
        Optional<WriteResult> repeat = repeated(userId, idem);
        if (repeat.isPresent()) {
            return repeat.get();
        }
        List<FactDraft> base = reader.snapshot(userId);
        Reconciler.Plan plan = reconciler.plan(base, parsed, SourceKind.INSTRUCTION, config.directConfidence());
        WriteResult result = write(WriteContext.automatic(userId, actor, "instruction (" + plan.path() + ")"),
                plan.changes(), plan.path(), idem);
        if (parsed instanceof Instruction.Forget forget) {
            // "forget …" reaches what the user said that never became a fact (a rejected candidate, say)
            List<Change> forgotten = new ArrayList<>();
            ProfileUnavailableException.guard(() -> {
                forgetAsked.fire(new ForgetAsked(userId, actor, forget.target(),
                        result.changes().stream().anyMatch(c -> c.action() == ProfileAction.FORGET), forgotten::addAll));
                return null;
            });
            if (!forgotten.isEmpty()) {
                // the answer names every FORGET event the instruction wrote, a candidate's too
                List<Change> changes = new ArrayList<>(result.changes());
                changes.addAll(forgotten);
                return new WriteResult(changes, result.path(), result.facts());
            }
        }
        return result;
    }

    /** The first write's answer when {@code idem} is recorded for the user (the facts as they are now); else empty. */
    Optional<WriteResult> repeated(String userId, Idempotency idem) {
        return idem == null ? Optional.empty()
                : ProfileUnavailableException.guard(() -> requests.recorded(userId, idem)).map(o -> result(o, userId));
    }

    /** Writes {@code changes}, at most once per {@code idem} when there is one. */
    WriteResult write(WriteContext ctx, ChangeSet changes, Reconciler.Path path, Idempotency idem) {
        if (idem == null) {
            return result(writer.apply(ctx, changes), path, ctx.userId());
        }
        return result(writer.applyOnce(ctx, changes, idem, path), ctx.userId());
    }

    private FactDraft draft(NewFact fact, SourceKind kind) {
        return FactDraft.of(fact, kind, config);
    }

    private WriteResult result(List<Change> changes, Reconciler.Path path, String userId) {
        return new WriteResult(changes, path, reader.activeFacts(userId));
    }

    private WriteResult result(ProfileRequests.Outcome outcome, String userId) {
        return result(outcome.changes(), outcome.path(), userId);
    }
}

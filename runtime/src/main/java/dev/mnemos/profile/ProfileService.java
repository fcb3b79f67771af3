package dev.mnemos.profile;

import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;
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

    public ProfileService(ProfileReader reader, ProfileWriter writer, Reconciler reconciler, ProfileConfig config) {
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
        new FactValidator(config).fact(fact);
        List<FactDraft> base = reader.snapshot(userId);
        List<FactDraft> incoming = new ArrayList<>(base);
        incoming.add(draft(fact, SourceKind.USER_STATEMENT));
        return result(writer.apply(WriteContext.direct(userId, actor, "stated by the user"),
                new ChangeSet(base, incoming, Set.of())), Reconciler.Path.DETERMINISTIC, userId);
    }

    /** Replaces an active fact with the corrected one; the old one is kept as SUPERSEDED. @throws FactNotFoundException */
    public WriteResult correct(String userId, String actor, long factId, NewFact fact) {
        new FactValidator(config).fact(fact);
        List<FactDraft> base = reader.snapshot(userId);
        FactDraft old = base.stream().filter(f -> f.id() == factId).findFirst()
                .orElseThrow(() -> new FactNotFoundException(factId));
        List<FactDraft> incoming = new ArrayList<>(base);
        incoming.remove(old);
        incoming.add(draft(fact, SourceKind.USER_STATEMENT).replacing(old.id(), old.taskState()));
        return result(writer.apply(WriteContext.direct(userId, actor, "corrected by the user"),
                new ChangeSet(base, incoming, Set.of())), Reconciler.Path.DETERMINISTIC, userId);
    }

    /** Removes the fact's text from every table; the audit trail keeps a FORGET event without it. */
    public WriteResult forget(String userId, String actor, long factId) {
        return result(writer.forget(WriteContext.direct(userId, actor, "forgotten at the user's request"), factId),
                Reconciler.Path.DETERMINISTIC, userId);
    }

    /** Follows "remember …", "forget …", "I no longer …", "以后用中文回答" and the like. */
    public WriteResult instruct(String userId, String actor, String instruction) {
        new FactValidator(config).input("instruction", instruction);
        Instruction parsed = Instruction.parse(instruction.strip());
        if (parsed instanceof Instruction.Remember r && r.text().isBlank()) {
            throw new InvalidFactException("instruction", "something to remember after 'remember'");
        }
        List<FactDraft> base = reader.snapshot(userId);
        Reconciler.Plan plan = reconciler.plan(base, parsed, SourceKind.INSTRUCTION, config.directConfidence());
        return result(writer.apply(WriteContext.automatic(userId, actor, "instruction (" + plan.path() + ")"),
                plan.changes()), plan.path(), userId);
    }

    private FactDraft draft(NewFact fact, SourceKind kind) {
        return FactDraft.of(fact, kind, config);
    }

    private WriteResult result(List<Change> changes, Reconciler.Path path, String userId) {
        return new WriteResult(changes, path, reader.activeFacts(userId));
    }
}

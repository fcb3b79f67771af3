package dev.mnemos.app;

import dev.mnemos.profile.HistoryEntry;
import dev.mnemos.profile.NewFact;
import dev.mnemos.profile.ProfileAsOf;
import dev.mnemos.profile.ProfileDiff;
import dev.mnemos.profile.ProfileImporter;
import dev.mnemos.profile.ProfileService;
import dev.mnemos.profile.ProfileTimeline;
import dev.mnemos.profile.WriteResult;
import dev.mnemos.promotion.PendingCandidate;
import dev.mnemos.promotion.PendingCandidates;
import dev.mnemos.promotion.PendingDecision;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;

/**
 * The long-term profile for a transport (the REST API, the MCP tools): reads, writes with their idempotency keys,
 * pages of the audit trail and of pending candidates, always of {@code who.user()}'s profile, with
 * {@code who.actor()} in the audit trail. A keyed write applies at most once; its record digests the operation,
 * the user and {@code request}.
 */
@ApplicationScoped
public class UserProfileService {

    private final ProfileService profiles;
    private final ProfileImporter importer;
    private final PendingCandidates pending;
    private final ProfileTimeline timeline;
    private final IdempotencyKeys keys;

    UserProfileService(ProfileService profiles, ProfileImporter importer, PendingCandidates pending,
            ProfileTimeline timeline, IdempotencyKeys keys) {
        this.profiles = profiles;
        this.importer = importer;
        this.pending = pending;
        this.timeline = timeline;
        this.keys = keys;
    }

    /** The user's active facts. */
    public ProfileResponse profile(String user) {
        return new ProfileResponse(user, profiles.activeFacts(user));
    }

    /** The facts valid at {@code at}. */
    public ProfileAsOf asOf(String user, Instant at) {
        return timeline.asOf(user, at);
    }

    /** The changes between two instants, {@code from} not after {@code to}. */
    public ProfileDiff diff(String user, Instant from, Instant to) {
        return timeline.diff(user, from, to);
    }

    public WriteResult add(Actor who, NewFact fact, String key, Object request) {
        return profiles.add(who.user(), who.actor(), fact, keys.of(key, "profile add", who.user(), request));
    }

    public WriteResult correct(Actor who, long factId, NewFact fact, String key, Object request) {
        return profiles.correct(who.user(), who.actor(), factId, fact,
                keys.of(key, "profile correct " + factId, who.user(), request));
    }

    public WriteResult forget(Actor who, long factId, String key, Object request) {
        return profiles.forget(who.user(), who.actor(), factId,
                keys.of(key, "profile forget " + factId, who.user(), request));
    }

    /** Reconciles a natural-language instruction ("remember …", "forget …") into profile writes. */
    public WriteResult instruct(Actor who, String instruction, String key, Object request) {
        return profiles.instruct(who.user(), who.actor(), instruction,
                keys.of(key, "profile instruct", who.user(), request));
    }

    /** Extracts facts from free text and writes them. */
    public WriteResult importText(Actor who, String text, String key, Object request) {
        return importer.importText(who.user(), who.actor(), text, keys.of(key, "profile import", who.user(), request));
    }

    /** A page of the audit trail, newest first, of events older than {@code beforeId}. */
    public Page<HistoryEntry> history(String user, long beforeId, int limit) {
        List<HistoryEntry> read = profiles.history(user, beforeId, limit + 1);
        return Page.of(read, limit, read.size() > limit ? read.get(limit - 1).id() : null);
    }

    /** Every pending candidate of the user. */
    public List<PendingCandidate> pending(String user) {
        return pending.list(user);
    }

    /** A page of pending candidates after {@code afterId}. */
    public Page<PendingCandidate> pending(String user, long afterId, int limit) {
        List<PendingCandidate> read = pending.list(user, afterId, limit + 1);
        return Page.of(read, limit, read.size() > limit ? read.get(limit - 1).id() : null);
    }

    public PendingDecision confirm(Actor who, long candidateId) {
        return pending.confirm(who.user(), candidateId, who.actor());
    }

    public PendingDecision reject(Actor who, long candidateId) {
        return pending.reject(who.user(), candidateId, who.actor());
    }
}

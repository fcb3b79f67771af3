package dev.mnemos.profile;

import dev.mnemos.session.Idempotency;
import dev.mnemos.session.IdempotencyKeyReusedException;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Profile writes sent with an Idempotency-Key: the key, a digest of the request and the ids of the audit events
 * the write made are stored by the write's own transaction ({@link ProfileTransaction}), under the user's lock, so
 * a repeat (a client's retry after a 503 whose write was in fact committed, or two requests racing with one key)
 * writes nothing and answers the first write's changes. A repeat with another request answers
 * {@link IdempotencyKeyReusedException}. A record is kept {@link ProfileConfig#idempotencyTtl()}; the user's
 * expired records are dropped by their next keyed write.
 * <p>
 * A record holds no fact text: a repeat's changes are read from the audit trail as it is now, so a fact forgotten
 * since is answered without its text. A forget also clears the digests of the user's records (a digest of a
 * request is a trace of its text): from then on those keys answer their records whatever request repeats them.
 */
@ApplicationScoped
public class ProfileRequests {

    /** A keyed write's outcome (the first write's, for a repeat): its changes and how it was decided. */
    public record Outcome(List<Change> changes, Reconciler.Path path) {
    }

    private final ProfileConfig config;

    public ProfileRequests(ProfileConfig config) {
        this.config = config;
    }

    /**
     * What the write recorded under {@code idem} answered, when it is recorded and not expired; before a write,
     * outside its transaction (the write checks again under the user's lock). @throws IdempotencyKeyReusedException
     * when the key was recorded with another request
     */
    @Transactional
    public Optional<Outcome> recorded(String userId, Idempotency idem) {
        return repeat(userId, idem);
    }

    /** {@link #recorded}, in the caller's transaction. */
    Optional<Outcome> repeat(String userId, Idempotency idem) {
        ProfileRequest request = ProfileRequest.<ProfileRequest> find("userId = ?1 and key = ?2", userId, idem.key())
                .firstResult();
        if (request == null || request.createdAt.isBefore(expiredBefore())) {
            return Optional.empty();
        }
        if (request.fingerprint != null && !request.fingerprint.equals(idem.fingerprint())) {
            throw new IdempotencyKeyReusedException(idem.key());
        }
        return Optional.of(new Outcome(changes(userId, request.eventIds), Reconciler.Path.valueOf(request.path)));
    }

    /**
     * Records a write under {@code idem}, in its transaction; drops the user's expired records first.
     *
     * @param digest whether to keep the request's digest (not when the write forgot a fact: see the class comment)
     */
    void record(String userId, Idempotency idem, boolean digest, Reconciler.Path path, List<Change> changes) {
        ProfileRequest.delete("userId = ?1 and createdAt < ?2", userId, expiredBefore());
        // an upsert: an expired record of the same key may still be there (a repeat's check found it expired)
        Panache.getEntityManager().createNativeQuery("""
                insert into profile_request (user_id, idem_key, fingerprint, path, event_ids, created_at)
                values (?1, ?2, cast(?3 as text), ?4, ?5, ?6)
                on conflict (user_id, idem_key) do update set fingerprint = excluded.fingerprint, path = excluded.path,
                    event_ids = excluded.event_ids, created_at = excluded.created_at""")
                .setParameter(1, userId).setParameter(2, idem.key()).setParameter(3, digest ? idem.fingerprint() : null)
                .setParameter(4, path.name())
                .setParameter(5, changes.stream().map(c -> String.valueOf(c.eventId())).collect(Collectors.joining(",")))
                .setParameter(6, Instant.now()).executeUpdate();
    }

    /** After a forget, in its transaction: the digests of the user's requests go (see the class comment). */
    void forgotten(String userId) {
        ProfileRequest.update("fingerprint = null where userId = ?1 and fingerprint is not null", userId);
    }

    private Instant expiredBefore() {
        return Instant.now().minus(config.idempotencyTtl());
    }

    private static List<Change> changes(String userId, String eventIds) {
        if (eventIds.isEmpty()) {
            return List.of();
        }
        List<Long> ids = Arrays.stream(eventIds.split(",")).map(Long::valueOf).toList();
        List<ProfileEvent> events = ProfileEvent.list("userId = ?1 and id in ?2", userId, ids);
        return events.stream().sorted(Comparator.comparing(e -> e.id))
                .map(e -> new Change(e.action, e.factId, e.before, e.after, e.reason, e.id)).toList();
    }
}

package dev.mnemos.erasure;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.profile.FactForgotten;
import dev.mnemos.profile.ProfileCache;
import dev.mnemos.profile.ProfilePromotions;
import dev.mnemos.session.RedisSessionScrub;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.jboss.logging.Logger;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * When a text is forgotten, blanks it out of the user's live sessions in Redis (state, checkpoints, replay log, chat
 * windows, step traces, plans, idempotency records), with the texts the user's forgotten texts cover there and
 * their evidence ({@link ForgottenCopies}), and drops the user's cached facts on this pod. What to blank is found
 * inside the forgetting transaction (the forgotten texts are read there); Redis is written when it is about to
 * commit, one atomic script per session ({@link RedisSessionScrub#scrub}), while it still holds the user's lock: an
 * end that read the session before and waits for the lock to archive it reads it again under the lock and archives
 * it blanked. Redis cannot join the Postgres transaction: a forget whose commit then fails has blanked the copies all
 * the same (the text stays in the profile); when Redis fails, the forget stands, the failure is logged, and the
 * session keeps its copies until it ends (its archive is then scrubbed by the next forget) or expires
 * (docs/operations.md, "What forget and erase remove").
 */
@ApplicationScoped
public class SessionScrubber {

    private static final Logger LOG = Logger.getLogger(SessionScrubber.class);

    private final RedisSessionScrub sessions;
    private final ProfilePromotions profile;
    private final ProfileCache cache;
    private final ObjectMapper json;
    private final TransactionSynchronizationRegistry transactions;

    public SessionScrubber(RedisSessionScrub sessions, ProfilePromotions profile, ProfileCache cache, ObjectMapper json,
            TransactionSynchronizationRegistry transactions) {
        this.sessions = sessions;
        this.profile = profile;
        this.cache = cache;
        this.json = json;
        this.transactions = transactions;
    }

    /** What one transaction forgot of one user: per session, the texts to blank. */
    private record Pending(String userId, Map<String, Set<String>> texts, ForgottenCopies copies) {
    }

    void onForget(@Observes FactForgotten fact) {
        ForgottenCopies copies = new ForgottenCopies(json, profile.forgotten(fact.userId()));
        Pending pending = pending(fact.userId(), copies);
        try {
            for (String session : sessions.indexed(fact.userId())) {
                Set<String> texts = pending.texts().computeIfAbsent(session, s -> new LinkedHashSet<>());
                texts.add(fact.text());
                sessions.values(session).forEach(value -> texts.addAll(copies.spokenIn(document(value))));
            }
        } catch (RuntimeException e) {
            // Redis is not part of the forget: it stands, and the sessions read so far are still scrubbed
            LOG.warnf(e, "the live sessions of a user could not be read to blank a forgotten text");
        }
    }

    /** The transaction's pending scrub of the user, registered to run after the commit on first use. */
    private Pending pending(String userId, ForgottenCopies copies) {
        String key = SessionScrubber.class.getName() + ":" + userId;
        Pending pending = (Pending) transactions.getResource(key);
        if (pending == null) {
            pending = new Pending(userId, new LinkedHashMap<>(), copies);
            transactions.putResource(key, pending);
            Pending registered = pending;
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    // before the commit, while the transaction holds the user's lock: an end waiting for the lock
                    // reads the session again after it (PromotionTransaction#commit) and finds it blanked
                    if (transactions.getTransactionStatus() == Status.STATUS_ACTIVE) {
                        scrub(registered);
                    }
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED) {
                        cache.invalidate(registered.userId());
                    }
                }
            });
        }
        return pending;
    }

    private void scrub(Pending pending) {
        pending.texts().forEach((session, texts) -> {
            try {
                sessions.scrub(session, ForgottenCopies.FORGOTTEN, pending.copies().forms(texts));
            } catch (RuntimeException e) {
                LOG.warnf(e, "a forgotten text could not be blanked out of session %s: it keeps it until it ends or expires",
                        session);
            }
        });
    }

    /** A value as JSON: a state field's ordered item starts with {@code <version>.<n>|}. */
    private static String document(String value) {
        int bar = value.indexOf('|');
        return bar > 0 && bar < 24 && value.charAt(0) != '{' && value.charAt(0) != '[' ? value.substring(bar + 1) : value;
    }
}

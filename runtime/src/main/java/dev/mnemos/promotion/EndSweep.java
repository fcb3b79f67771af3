package dev.mnemos.promotion;

import dev.mnemos.session.EndedBeforeTheIndex;
import dev.mnemos.session.MnemosRedis;
import dev.mnemos.session.RedisUnfinishedEnds;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Completes the ends a crash cut short. {@link PromotionService#end} marks a session ENDED in Redis before it
 * promotes and archives it in Postgres; a process that dies in between leaves the session ENDED without an
 * archive, and its keys would expire unpromoted unless a client retried {@code /end}. {@link #FIRST_SWEEP} after
 * start-up (or one interval, when that is shorter) and then every {@link PromotionConfig#endSweepInterval()}, every
 * session that has been ENDED for longer than
 * {@link PromotionConfig#endSweepGrace()} is ended again through {@link PromotionService#end}, the path
 * {@code /end} takes: it is idempotent and safe with several instances sweeping at once (the Postgres half runs
 * under the user's profile lock and answers the stored report when another instance archived the session
 * first; clearing the keys again is harmless). The sessions are found in the index of unfinished ends
 * ({@link RedisUnfinishedEnds}), which every end joins before it marks its session ENDED: unlike {@code SCAN}, it
 * reaches every master of a Redis Cluster. The first sweep of a process also indexes sessions ended before that index
 * existed ({@link EndedBeforeTheIndex}).
 */
@ApplicationScoped
public class EndSweep {

    private static final Logger LOG = Logger.getLogger(EndSweep.class);
    /** Who ends a session whose END event names nobody. */
    static final String ACTOR = "mnemos-end-sweep";
    /**
     * How long after start-up the first sweep waits: its reads and the ends it completes then run once the
     * application has started, not beside its start. A session ENDED by a crash waits its grace period anyway.
     */
    static final Duration FIRST_SWEEP = Duration.ofSeconds(30);

    private final RedisDataSource redis;
    private final SessionStore store;
    private final PromotionService promotion;
    private final PromotionConfig config;
    private final RedisUnfinishedEnds ends;
    private final AtomicBoolean olderEndsIndexed = new AtomicBoolean();
    private ScheduledExecutorService timer;

    public EndSweep(@MnemosRedis RedisDataSource redis, SessionStore store, PromotionService promotion,
            PromotionConfig config) {
        this.redis = redis;
        this.store = store;
        this.promotion = promotion;
        this.config = config;
        this.ends = new RedisUnfinishedEnds(redis);
    }

    void onStart(@Observes StartupEvent start) {
        Duration interval = config.endSweepInterval();
        if (interval.isZero() || interval.isNegative()) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "mnemos-end-sweep");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::sweepQuietly, firstSweep(interval).toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** How long after start-up the first sweep runs: {@link #FIRST_SWEEP}, or one interval when that is shorter. */
    static Duration firstSweep(Duration interval) {
        return interval.compareTo(FIRST_SWEEP) < 0 ? interval : FIRST_SWEEP;
    }

    void onStop(@Observes ShutdownEvent stop) {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    private void sweepQuietly() {
        try {
            sweep();
        } catch (RuntimeException e) {
            if (!timer.isShutdown()) {
                // not when the application stops under a running sweep
                LOG.warnf("the sweep for unfinished session ends failed; it runs again in %s: %s",
                        config.endSweepInterval(), e.toString());
            }
        }
    }

    /**
     * Ends every indexed session ENDED longer than the grace period and not yet archived, and drops the entries of
     * sessions that are gone (archived and cleared, expired, deleted). The entry of a live session (a process died
     * between indexing its end and marking it ENDED) stays until the session ends or expires: dropping it could race
     * an {@code /end} running now, whose entry it is too. @return how many ends it completed: archived by this sweep, not
     * by another sweep or a client's {@code /end} that archived the session first
     */
    public int sweep() {
        if (olderEndsIndexed.compareAndSet(false, true)) {
            new EndedBeforeTheIndex(redis).index();
        }
        Instant before = Instant.now().minus(config.endSweepGrace());
        int completed = 0;
        for (String sessionId : ends.before(before)) {
            Map<String, String> fields = redis.hash(String.class).hmget(SessionKeys.state(sessionId), "status",
                    "updatedAt");
            if (fields.get("status") == null) {
                ends.finished(sessionId);
            } else if (unfinished(fields, before) && complete(sessionId)) {
                completed++;
            }
        }
        return completed;
    }

    private boolean complete(String sessionId) {
        try {
            if (!promotion.complete(sessionId, actor(sessionId))) {
                return false; // another end archived it first: counted by that one
            }
            LOG.infof("completed the end of session %s, left ended without an archive", sessionId);
            return true;
        } catch (RuntimeException e) {
            LOG.warnf("could not complete the end of session %s (retried by the next sweep): %s", sessionId,
                    e.toString());
            return false;
        }
    }

    private static boolean unfinished(Map<String, String> fields, Instant before) {
        String updated = fields.get("updatedAt");
        return SessionState.Status.ENDED.name().equals(fields.get("status")) && updated != null
                && Instant.ofEpochMilli(Long.parseLong(updated)).isBefore(before);
    }

    /** Who ended the session: its END event's actor, as the promotion's audit names it. */
    private String actor(String sessionId) {
        SessionState state = store.get(sessionId);
        return store.events(sessionId, state.version(), 1).stream().filter(e -> e.type() == SessionEvent.Type.END)
                .map(SessionEvent::actor).filter(a -> a != null && !a.isBlank()).findFirst().orElse(ACTOR);
    }
}

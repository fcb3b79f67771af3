package dev.mnemos.session;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.quarkus.arc.ClientProxy;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.redis.client.Response;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Live sessions exist only in Redis until they end, so their durability is Redis' configuration:
 * read at start-up and on every {@link #check()} ({@code CONFIG GET appendonly, appendfsync,
 * maxmemory-policy}). Settings that can lose acknowledged writes or drop session keys are logged
 * as a warning (once per JVM for the same settings, so a dev-mode reload does not repeat it; at INFO
 * when {@code quarkus.mnemos.redis.durability-check=accepted}) and exposed as the gauge
 * {@code mnemos.redis.persistence{setting, value, safe}} (one row per setting, value 1). A Redis without {@code CONFIG}
 * (disabled or renamed, as on some
 * managed services) reports {@code unknown} and never fails anything (docs/operations.md,
 * "Redis durability").
 */
@ApplicationScoped
public class RedisDurability {

    private static final Logger LOG = Logger.getLogger(RedisDurability.class);
    public static final String GAUGE = "mnemos.redis.persistence";
    public static final String UNKNOWN = "unknown";
    /**
     * The evicting {@code maxmemory-policy} values, in the order the write scripts number them when they refuse a write
     * ({@code session-common.lua}, reply -12).
     */
    static final List<String> EVICTING = List.of("allkeys-lru", "allkeys-lfu", "allkeys-random", "volatile-lru",
            "volatile-lfu", "volatile-random", "volatile-ttl");

    /**
     * Redis' durability settings as read, each {@value #UNKNOWN} when they could not be read.
     *
     * @param risks what could lose sessions, empty when the settings are safe
     */
    public record Report(String appendonly, String appendfsync, String maxmemoryPolicy, List<String> risks) {

        static Report of(String appendonly, String appendfsync, String policy) {
            List<String> risks = new ArrayList<>();
            if ("no".equals(appendonly)) {
                risks.add("appendonly is no: a Redis restart loses every live session");
            } else if ("yes".equals(appendonly) && !fsyncSafe(appendfsync)) {
                risks.add("appendfsync is " + appendfsync + ": a crash can lose writes already acknowledged"
                        + " (as many as the OS buffered)");
            }
            if (!UNKNOWN.equals(policy) && !"noeviction".equals(policy)) {
                risks.add("maxmemory-policy is " + policy + ": under memory pressure Redis may evict session keys"
                        + " (they all have a TTL, so volatile-* policies evict them too)");
            }
            return new Report(appendonly, appendfsync, policy, List.copyOf(risks));
        }

        /** {@code always}, or {@code everysec}: the documented trade-off, at most about one second lost on a crash. */
        static boolean fsyncSafe(String appendfsync) {
            return "always".equals(appendfsync) || "everysec".equals(appendfsync);
        }

        /** An eviction policy is known to be set: Redis may drop session keys under memory pressure. */
        public boolean evicting() {
            return !UNKNOWN.equals(maxmemoryPolicy) && !"noeviction".equals(maxmemoryPolicy);
        }

        public boolean known() {
            return !UNKNOWN.equals(appendonly) && !UNKNOWN.equals(appendfsync) && !UNKNOWN.equals(maxmemoryPolicy);
        }

        /** One line for a log or a health report. */
        public String assessment() {
            if (!risks.isEmpty()) {
                return String.join("; ", risks);
            }
            return known() ? "safe: append-only file fsynced " + ("always".equals(appendfsync) ? "on every write"
                    : "every second (a host crash can lose up to about one second of acknowledged writes)")
                    + ", no eviction"
                    : "unknown: Redis did not tell its configuration (CONFIG disabled or unreachable)";
        }
    }

    /** The assessments already warned about in this JVM: the extension's classes outlive a dev-mode reload. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private final RedisDataSource redis;
    private final DurabilityCheck mode;
    private final MultiGauge gauge;
    private final boolean acceptEviction;
    private final Duration interval;
    /** The last settings read; null before the first check. */
    private volatile Report current;
    private ScheduledExecutorService timer;
    private CompletableFuture<Report> firstCheck;

    public RedisDurability(@MnemosRedis RedisDataSource redis, MeterRegistry registry, RedisDurabilityConfig config) {
        this.redis = redis;
        this.mode = config.durabilityCheck();
        this.acceptEviction = config.acceptEviction();
        this.interval = config.checkInterval();
        this.gauge = MultiGauge.builder(GAUGE)
                .description("Redis durability settings that decide whether live sessions survive a restart;"
                        + " one row per setting, tagged with its value and whether it is safe")
                .register(registry);
    }

    /**
     * Starts the first check on Mnemos' durability thread when the application starts, and does not wait for it: its
     * round trips (and the Redis client's first connection) overlap the rest of the start and the first requests. It
     * logs what it found and schedules the next checks. Until it is done, a session write waits for it
     * ({@link #refuseWritesIfEvicting}), so no write slips past an evicting Redis.
     */
    void onStart(@Observes @Priority(1) StartupEvent start) {
        // the Redis client is made here, on the start's thread: Quarkus makes its Redis beans with a map that is not
        // safe against another thread making one at the same time (seen as a ConcurrentModificationException)
        ClientProxy.unwrap(redis);
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "mnemos-redis-durability");
            thread.setDaemon(true);
            return thread;
        });
        firstCheck = CompletableFuture.supplyAsync(this::check, timer);
        firstCheck.thenAccept(this::afterFirstCheck);
    }

    private void afterFirstCheck(Report report) {
        if (!interval.isZero() && !interval.isNegative()) {
            long millis = interval.toMillis();
            timer.scheduleWithFixedDelay(this::check, millis, millis, TimeUnit.MILLISECONDS);
        } else {
            timer.shutdown();
        }
        String down = report.known() ? null : unreachable();
        if (down != null) {
            LOG.warnf("Redis is unreachable at start (%s): every @SessionMemory step fails with"
                    + " SessionMemoryUnavailableException, and the model is not called, until it answers; check"
                    + " quarkus.redis.hosts (or the client quarkus.mnemos.redis-client-name names)", down);
        } else if (report.risks().isEmpty() && report.known()) {
            LOG.infof("Redis durability: %s", report.assessment());
        } else if (mode == DurabilityCheck.ACCEPTED) {
            LOG.infof("Redis durability (accepted by quarkus.mnemos.redis.durability-check): %s", report.assessment());
        } else if (!WARNED.add(report.assessment())) {
            LOG.infof("Redis durability, as warned at this JVM's first start: %s", report.assessment());
        } else if (!report.risks().isEmpty()) {
            LOG.warnf("REDIS MAY LOSE LIVE SESSIONS: %s. Live sessions exist only in Redis until they end;"
                    + " set appendonly yes, appendfsync everysec or always, and maxmemory-policy noeviction, or accept"
                    + " the risk with quarkus.mnemos.redis.durability-check=accepted (docs/operations.md)",
                    report.assessment());
        } else {
            LOG.warnf("Redis durability is unknown (%s); make sure it runs with appendonly yes, appendfsync always"
                    + " and maxmemory-policy noeviction, or accept the risk with"
                    + " quarkus.mnemos.redis.durability-check=accepted (docs/operations.md)", report.assessment());
        }
    }

    /** The first check's report: waits for it while it runs; checks on this thread when it did not run. */
    private Report firstReport() {
        if (firstCheck == null) {
            return check();
        }
        try {
            return firstCheck.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return check();
        } catch (ExecutionException e) {
            return check();
        }
    }

    void onStop(@Observes ShutdownEvent stop) {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    /**
     * Whether session writes are refused under these settings: an evicting policy, not accepted with
     * {@code quarkus.mnemos.redis.accept-eviction}. An unknown policy (no {@code CONFIG}) refuses nothing.
     */
    public boolean refusesWrites(Report report) {
        return !acceptEviction && report.evicting();
    }

    /**
     * Whether the write scripts refuse to write while Redis runs an evicting policy: each reads the policy itself
     * ({@code INFO memory}, in the same atomic call as the write), so a {@code CONFIG SET maxmemory-policy} at runtime
     * stops the very next session write; false with {@code quarkus.mnemos.redis.accept-eviction=true}.
     */
    public boolean refusesEviction() {
        return !acceptEviction;
    }

    /** The policy a write script numbered (1 for the first of {@link #EVICTING}); a number past them: one it does not name. */
    static String evictingPolicy(long number) {
        return number >= 1 && number <= EVICTING.size() ? EVICTING.get((int) number - 1) : "an evicting policy";
    }

    /**
     * Throws {@link RedisDurabilityException} (nothing written, 503) while the last check found an evicting
     * policy that is not accepted. Costs no round trip: the settings are read when the application starts (the
     * writes that come before that read is done wait for it), by readiness probes and every
     * {@code quarkus.mnemos.redis.check-interval}.
     */
    public void refuseWritesIfEvicting() {
        Report report = current;
        if (report == null) {
            report = firstReport(); // the first check is still running (the first writes after start)
        }
        if (report != null && refusesWrites(report)) {
            throw new RedisDurabilityException(report.maxmemoryPolicy());
        }
    }

    /** Reads the settings now and updates the gauge and whether writes are refused. Never throws. */
    public Report check() {
        Report report = Report.of(setting("appendonly"), setting("appendfsync"), setting("maxmemory-policy"));
        Report before = current;
        current = report;
        boolean refusing = refusesWrites(report);
        if (before == null ? refusing : refusing != refusesWrites(before)) {
            if (refusing) {
                LOG.errorf("Redis maxmemory-policy is %s: session writes answer 503 and readiness is DOWN until it is"
                        + " noeviction (or quarkus.mnemos.redis.accept-eviction=true accepts the risk)",
                        report.maxmemoryPolicy());
            } else {
                LOG.infof("Redis maxmemory-policy is %s: session writes are accepted again", report.maxmemoryPolicy());
            }
        }
        gauge.register(List.of(row("appendonly", report.appendonly(), "yes".equals(report.appendonly())),
                row("appendfsync", report.appendfsync(), Report.fsyncSafe(report.appendfsync())),
                row("maxmemory-policy", report.maxmemoryPolicy(), "noeviction".equals(report.maxmemoryPolicy()))),
                true);
        return report;
    }

    private static MultiGauge.Row<?> row(String setting, String value, boolean safe) {
        return MultiGauge.Row.of(Tags.of("setting", setting, "value", value, "safe", Boolean.toString(safe)), 1);
    }

    /** Why Redis does not answer a PING, or null when it does. */
    private String unreachable() {
        try {
            redis.execute("PING");
            return null;
        } catch (RuntimeException e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    private String setting(String name) {
        try {
            Response reply = redis.execute("CONFIG", "GET", name);
            if (reply == null || reply.size() == 0) {
                return UNKNOWN;
            }
            try {
                if (reply.containsKey(name)) {
                    return reply.get(name).toString();
                }
            } catch (RuntimeException notAMap) {
                // RESP2: a flat list name, value
            }
            return reply.size() >= 2 ? reply.get(1).toString() : UNKNOWN;
        } catch (RuntimeException e) {
            LOG.debugf("CONFIG GET %s failed: %s", name, e.getMessage());
            return UNKNOWN;
        }
    }
}

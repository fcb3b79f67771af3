package dev.mnemos.injection;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.session.SessionConfig;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionScripts;
import dev.mnemos.session.SessionStoreUnavailableException;
import io.quarkus.redis.datasource.RedisDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;

/**
 * Step traces in Redis: the session's hash {@link SessionKeys#trace}, field = written version,
 * value = JSON, with the session's TTL. Saving is one round trip (the script by its SHA) that, every 64 saves past the
 * retention, drops all traces older than the retention window, so the hash stays bounded however
 * long the session runs. Once the session's state is gone (deleted or ended in between) it writes
 * nothing, so a late trace never outlives its session. Redis failures surface as {@link SessionStoreUnavailableException} (503
 * at the API).
 */
@ApplicationScoped
public class RedisStepTraceStore implements StepTraceStore {

    // Saves a trace; once the hash holds 64 more traces than retained, drops every trace older than
    // the retention window in one sweep (traces exist only for some versions, so deleting exactly
    // version - retention would miss most of them). Amortised cost per save stays constant.
    private static final SessionScripts SAVE = SessionScripts.of("""
            if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
            redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
            local expired = tonumber(ARGV[3])
            if expired > 0 and redis.call('HLEN', KEYS[1]) > tonumber(ARGV[5]) + 64 then
              for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
                if tonumber(field) <= expired then redis.call('HDEL', KEYS[1], field) end
              end
            end
            redis.call('PEXPIRE', KEYS[1], ARGV[4])
            return 1""");

    private final RedisDataSource redis;
    private final ObjectMapper json;
    private final SessionConfig session;
    private final InjectionConfig config;

    public RedisStepTraceStore(RedisDataSource redis, ObjectMapper json, SessionConfig session, InjectionConfig config) {
        this.redis = redis;
        this.json = json;
        this.session = session;
        this.config = config;
    }

    @Override
    public void save(StepTrace trace) {
        long expired = trace.version() - config.traceRetention();
        String key = SessionKeys.trace(trace.sessionId());
        guarded(() -> SAVE.execute(redis, List.of(key, SessionKeys.state(trace.sessionId())),
                List.of(Long.toString(trace.version()), write(trace),
                        Long.toString(Math.max(0, expired)), Long.toString(session.ttl().toMillis()),
                        Integer.toString(config.traceRetention()))));
    }

    /** The trace of the step that wrote {@code version}, or empty. */
    @Override
    public Optional<StepTrace> find(String sessionId, long version) {
        String key = SessionKeys.trace(sessionId);
        String value = guarded(() -> redis.hash(String.class).hget(key, Long.toString(version)));
        return Optional.ofNullable(value).map(this::read);
    }

    @Override
    public List<StepTrace> all(String sessionId) {
        String key = SessionKeys.trace(sessionId);
        return guarded(() -> redis.hash(String.class).hgetall(key)).values().stream().map(this::read)
                .sorted(java.util.Comparator.comparingLong(StepTrace::version)).toList();
    }

    private static <T> T guarded(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw new SessionStoreUnavailableException("Redis did not answer: " + e.getMessage(), e);
        }
    }

    private String write(StepTrace trace) {
        try {
            return json.writeValueAsString(trace);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("step trace is not serialisable", e);
        }
    }

    private StepTrace read(String value) {
        try {
            return json.readValue(value, StepTrace.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored step trace is not readable", e);
        }
    }
}

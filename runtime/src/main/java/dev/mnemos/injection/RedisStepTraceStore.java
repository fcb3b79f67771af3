package dev.mnemos.injection;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionStoreUnavailableException;
import dev.mnemos.session.StepTraceEntry;
import io.quarkus.redis.datasource.RedisDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;

/**
 * Step traces in Redis: the session's hash {@link SessionKeys#trace}, field = written version,
 * value = JSON, with the session's TTL. A trace is stored by its step's write (session-patch.lua):
 * in the same atomic script and round trip, so a refused write leaves no trace and a trace never
 * outlives its session. Every 64 traces past the retention ({@link InjectionConfig#traceRetention()})
 * that write drops all traces older than the window, so the hash stays bounded however long the
 * session runs. Redis failures surface as {@link SessionStoreUnavailableException} (503 at the API).
 */
@ApplicationScoped
public class RedisStepTraceStore implements StepTraceStore {

    private final RedisDataSource redis;
    private final ObjectMapper json;
    private final InjectionConfig config;

    public RedisStepTraceStore(RedisDataSource redis, ObjectMapper json, InjectionConfig config) {
        this.redis = redis;
        this.json = json;
        this.config = config;
    }

    @Override
    public StepTraceEntry entry(StepTrace trace) {
        return new StepTraceEntry(write(trace), config.traceRetention());
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

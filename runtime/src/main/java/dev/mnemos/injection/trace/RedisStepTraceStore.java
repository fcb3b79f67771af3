package dev.mnemos.injection.trace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.session.MnemosRedis;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionOwners;
import dev.mnemos.session.SessionStoreUnavailableException;
import dev.mnemos.session.SessionValues;
import dev.mnemos.session.StepTraceEntry;
import io.quarkus.redis.datasource.RedisDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Step traces in Redis: the session's hash {@link SessionKeys#trace}, field = written version, with the
 * session's TTL. The value is the trace's JSON without its memory block, a line break, then the block as it is:
 * the block is most of a trace, and this way it is copied, not escaped for JSON, on the step's path (the JSON
 * holds no line break of its own). Values of earlier versions, JSON with the block inside, read as before. A trace is stored by
 * its step's write (session-patch.lua):
 * in the same atomic script and round trip, so a refused write leaves no trace and a trace never
 * outlives its session. Every 64 traces past the retention ({@link InjectionConfig#traceRetention()})
 * that write drops all traces older than the window, so the hash stays bounded however long the
 * session runs. Redis failures surface as {@link SessionStoreUnavailableException} (503 at the API).
 */
@ApplicationScoped
class RedisStepTraceStore implements StepTraceStore {

    private final RedisDataSource redis;
    private final ObjectMapper json;
    /**
     * One line of JSON whatever the application's mapper indents (the block starts after the first line break),
     * without null fields (the block's among them: it follows the line).
     */
    private final ObjectWriter line;
    private final InjectionConfig config;
    /** Traces are sealed with their session owner's data key when encryption at rest is on. */
    private final SessionValues values;
    private final SessionOwners owners;

    public RedisStepTraceStore(@MnemosRedis RedisDataSource redis, ObjectMapper json, InjectionConfig config,
            SessionValues values) {
        this.redis = redis;
        this.values = values;
        this.owners = SessionOwners.of(redis);
        this.json = json;
        this.line = json.copy().setSerializationInclusion(JsonInclude.Include.NON_NULL).writerFor(StepTrace.class)
                .without(SerializationFeature.INDENT_OUTPUT);
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
        return Optional.ofNullable(value).map(v -> read(sessionId, v));
    }

    @Override
    public List<StepTrace> all(String sessionId) {
        String key = SessionKeys.trace(sessionId);
        return guarded(() -> redis.hash(String.class).hgetall(key)).values().stream().map(v -> read(sessionId, v))
                .sorted(Comparator.comparingLong(StepTrace::version)).toList();
    }

    private static <T> T guarded(Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw new SessionStoreUnavailableException("Redis did not answer: " + e.getMessage(), e);
        }
    }

    /** The stored form: the trace's JSON without its block, a line break, the block. */
    static String write(ObjectWriter line, StepTrace trace) {
        String block = trace.injected().block();
        try {
            return line.writeValueAsString(trace.withBlock(null)) + "\n" + (block == null ? "" : block);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("step trace is not serialisable", e);
        }
    }

    private String write(StepTrace trace) {
        return write(line, trace);
    }

    /** A stored trace: this version's form, or an earlier version's JSON with the block inside. */
    static StepTrace read(ObjectMapper json, String value) {
        int end = value.indexOf('\n');
        try {
            if (end < 0) {
                return json.readValue(value, StepTrace.class);
            }
            return json.readValue(value.substring(0, end), StepTrace.class).withBlock(value.substring(end + 1));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored step trace is not readable", e);
        }
    }

    /** A stored trace of the session, opened when sealed (the step write seals it: RedisSessionWrites). */
    private StepTrace read(String sessionId, String value) {
        return read(json, values.on() ? values.open(owners.owner(sessionId), "trace", value) : value);
    }
}

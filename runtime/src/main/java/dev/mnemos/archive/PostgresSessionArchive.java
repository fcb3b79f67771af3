package dev.mnemos.archive;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionState;
import dev.mnemos.tracing.MnemosSpans;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * Ended sessions in Postgres ({@code session_archive}): the replay log, final state, step traces and
 * end report, stored as JSON when the session ends and readable after its Redis keys are gone.
 */
@ApplicationScoped
public class PostgresSessionArchive implements EndedSessions {

    private static final TypeReference<List<SessionEvent>> EVENTS = new TypeReference<>() {
    };
    private static final TypeReference<List<StepTrace>> TRACES = new TypeReference<>() {
    };

    private final ObjectMapper json;
    private final MnemosSpans spans;

    public PostgresSessionArchive(ObjectMapper json, MnemosSpans spans) {
        this.spans = spans;
        // archives outlive code changes: a field dropped from a record must not make old archives unreadable
        this.json = json.copy().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    }

    @Override
    @Transactional
    public Optional<Archived> find(String sessionId) {
        return ArchivedSession.<ArchivedSession> findByIdOptional(sessionId).map(a -> new Archived(a.sessionId, a.userId,
                read(a.events, type(EVENTS)), read(a.finalState, type(SessionState.class))));
    }

    @Override
    @Transactional
    public Optional<StepTrace> trace(String sessionId, long version) {
        return ArchivedSession.<ArchivedSession> findByIdOptional(sessionId)
                .filter(a -> a.traces != null)
                .flatMap(a -> this.<List<StepTrace>> read(a.traces, type(TRACES)).stream()
                        .filter(t -> t.version() == version).findFirst());
    }

    /** The user who owned the archived session. */
    @Override
    @Transactional
    public Optional<String> owner(String sessionId) {
        return ArchivedSession.<ArchivedSession> findByIdOptional(sessionId).map(a -> a.userId);
    }

    @Override
    @Transactional
    public <T> Optional<T> report(String sessionId, Class<T> type) {
        return ArchivedSession.<ArchivedSession> findByIdOptional(sessionId).map(a -> read(a.report, type(type)));
    }

    @Override
    @Transactional
    public void save(ArchiveEntry entry) {
        spans.in("mnemos.end.archive", entry.finalState().sessionId(), () -> {
            persist(entry);
            return entry;
        });
    }

    private void persist(ArchiveEntry entry) {
        ArchivedSession archived = new ArchivedSession();
        archived.sessionId = entry.finalState().sessionId();
        archived.userId = entry.finalState().userId();
        archived.endedAt = entry.endedAt();
        archived.finalState = write(entry.finalState());
        archived.events = write(entry.events());
        archived.report = write(entry.report());
        archived.traces = entry.traces().isEmpty() ? null : write(entry.traces());
        archived.persist();
    }

    private JavaType type(Class<?> type) {
        return json.getTypeFactory().constructType(type);
    }

    private JavaType type(TypeReference<?> type) {
        return json.getTypeFactory().constructType(type);
    }

    private String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the session archive", e);
        }
    }

    private <T> T read(String text, JavaType type) {
        try {
            return json.readValue(text, type);
        } catch (IOException e) {
            throw new UncheckedIOException("the session archive cannot be read", e);
        }
    }
}

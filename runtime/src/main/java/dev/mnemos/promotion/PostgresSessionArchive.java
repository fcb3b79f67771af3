package dev.mnemos.promotion;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.session.SessionArchive;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * Ended sessions in Postgres ({@code session_archive}): the replay log and final state written by
 * {@link PromotionService#end}, readable after the Redis keys are gone. Empty for a session that
 * was never archived.
 */
@ApplicationScoped
public class PostgresSessionArchive implements SessionArchive {

    private static final TypeReference<List<SessionEvent>> EVENTS = new TypeReference<>() {
    };
    private static final TypeReference<List<StepTrace>> TRACES = new TypeReference<>() {
    };

    private final ObjectMapper json;

    public PostgresSessionArchive(ObjectMapper json) {
        // archives outlive code changes: a field dropped from a record must not make old archives unreadable
        this.json = json.copy().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    }

    @Override
    @Transactional
    public Optional<Archived> find(String sessionId) {
        return ArchivedSession.<ArchivedSession>findByIdOptional(sessionId).map(a -> new Archived(a.sessionId, a.userId,
                read(a.events, EVENTS), read(a.finalState, new TypeReference<SessionState>() {
        })));
    }

    /** The archived trace of the step that wrote {@code version}, or empty. */
    @Transactional
    public Optional<StepTrace> trace(String sessionId, long version) {
        return ArchivedSession.<ArchivedSession>findByIdOptional(sessionId)
                .filter(a -> a.traces != null)
                .flatMap(a -> read(a.traces, TRACES).stream().filter(t -> t.version() == version).findFirst());
    }

    /** The user who owned the archived session. */
    @Override
    @Transactional
    public Optional<String> owner(String sessionId) {
        return ArchivedSession.<ArchivedSession>findByIdOptional(sessionId).map(a -> a.userId);
    }

    private <T> T read(String text, TypeReference<T> type) {
        try {
            return json.readValue(text, type);
        } catch (IOException e) {
            throw new UncheckedIOException("the session archive cannot be read", e);
        }
    }
}

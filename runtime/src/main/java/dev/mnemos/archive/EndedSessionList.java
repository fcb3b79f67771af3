package dev.mnemos.archive;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.crypt.MemoryCipher;
import dev.mnemos.crypt.Place;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * A user's ended sessions, newest first, a page at a time: the archive rows' ids, end times and
 * goals, without reading their replay logs or traces. Pages are keyset pages on
 * {@code (ended_at, session_id)}: a cursor names the last row of the previous page, so rows archived
 * meanwhile neither repeat nor shift a page.
 */
@ApplicationScoped
public class EndedSessionList {

    private final MemoryCipher cipher;
    private final ObjectMapper json;

    public EndedSessionList(MemoryCipher cipher, ObjectMapper json) {
        this.cipher = cipher;
        this.json = json;
    }

    /** One ended session as listed: its id, when it ended and its goal (null when it had none). */
    @Schema(name = "EndedSession")
    public record Entry(String sessionId, Instant endedAt, String goal) {
    }

    /** A page of entries and the cursor of the next page (empty on the last page). */
    public record Page(List<Entry> entries, Optional<String> nextCursor) {
    }

    /** Where a page starts: strictly after this (endedAt, sessionId) in newest-first order. */
    public record Cursor(Instant endedAt, String sessionId) {

        /** An opaque, URL-safe token. */
        public String encode() {
            long micros = ChronoUnit.MICROS.between(Instant.EPOCH, endedAt);
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString((micros + ":" + sessionId).getBytes(StandardCharsets.UTF_8));
        }

        /** The cursor a token names, or empty when the token is not one this class made. */
        public static Optional<Cursor> decode(String token) {
            try {
                String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
                int colon = text.indexOf(':');
                if (colon < 1 || colon == text.length() - 1) {
                    return Optional.empty();
                }
                long micros = Long.parseLong(text.substring(0, colon));
                return Optional.of(new Cursor(Instant.EPOCH.plus(micros, ChronoUnit.MICROS), text.substring(colon + 1)));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
    }

    /**
     * At most {@code limit} of {@code userId}'s ended sessions after {@code after} (from the newest when
     * empty). The goal is read from the archived final state by Postgres, for the page's rows only; with encryption on,
     * the final states are sealed, and the page's are opened and read here.
     */
    @Transactional
    public Page page(String userId, Optional<Cursor> after, int limit) {
        String sql = "select session_id, ended_at, "
                + (cipher.on() ? "final_state" : "cast(final_state as jsonb) ->> 'goal'") + " from session_archive"
                + " where user_id = :user"
                + (after.isPresent() ? " and (ended_at < :at or (ended_at = :at and session_id < :id))" : "")
                + " order by ended_at desc, session_id desc limit :limit";
        var query = ArchivedSession.getEntityManager().createNativeQuery(sql)
                .setParameter("user", userId)
                .setParameter("limit", limit + 1);
        after.ifPresent(c -> query.setParameter("at", OffsetDateTime.ofInstant(c.endedAt(), ZoneOffset.UTC))
                .setParameter("id", c.sessionId()));
        List<Entry> entries = new ArrayList<>();
        for (Object row : query.getResultList()) {
            Object[] columns = (Object[]) row;
            String goal = cipher.on() ? goal(userId, (String) columns[0], (String) columns[2]) : (String) columns[2];
            entries.add(new Entry((String) columns[0], instant(columns[1]), goal));
        }
        if (entries.size() <= limit) {
            return new Page(entries, Optional.empty());
        }
        List<Entry> page = entries.subList(0, limit);
        Entry last = page.get(limit - 1);
        return new Page(List.copyOf(page), Optional.of(new Cursor(last.endedAt(), last.sessionId()).encode()));
    }

    /** The goal an archived final state names (stored sealed or, archived before encryption was on, plain). */
    private String goal(String userId, String sessionId, String finalState) {
        try {
            JsonNode goal = json.readTree(cipher.open(finalState, new Place(userId, "session_archive", "final_state",
                    sessionId))).get("goal");
            return goal == null || goal.isNull() ? null : goal.asText();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the archived final state of session " + sessionId + " is no JSON", e);
        }
    }

    private static Instant instant(Object value) {
        if (value instanceof Instant instant) {
            return instant;
        }
        if (value instanceof OffsetDateTime time) {
            return time.toInstant();
        }
        if (value instanceof Timestamp timestamp) {
            return timestamp.toInstant();
        }
        throw new IllegalStateException("unexpected ended_at type " + value.getClass().getName());
    }
}

package dev.mnemos.erasure;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.crypt.MemoryCipher;
import dev.mnemos.crypt.Place;
import dev.mnemos.profile.ProfileUnavailableException;
import dev.mnemos.session.RedisSessionScrub;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything Mnemos holds about a user, as one JSON document: every row of theirs in every table of
 * {@link UserErasure#TABLES}, each column as stored (a text holding JSON as that JSON, bytes such as embeddings as
 * base64), and every key of their live sessions in Redis ({@link RedisSessionScrub#dump}). The rows are read in one
 * snapshot of Postgres. Sealed values are opened (encryption at rest): the export says what the user's memory holds,
 * and their data key is never part of it.
 */
@ApplicationScoped
public class UserExport {

    private final AgroalDataSource db;
    private final RedisSessionScrub sessions;
    private final ObjectMapper json;
    private final MemoryCipher cipher;

    public UserExport(AgroalDataSource db, RedisSessionScrub sessions, ObjectMapper json, MemoryCipher cipher) {
        this.cipher = cipher;
        this.db = db;
        this.sessions = sessions;
        this.json = json;
    }

    /** The export of {@code userId}: {@code userId}, {@code exportedAt}, {@code tables}, {@code liveSessions}. */
    public Map<String, Object> export(String userId) {
        Map<String, Object> export = new LinkedHashMap<>();
        export.put("userId", userId);
        export.put("exportedAt", Instant.now());
        export.put("tables", ProfileUnavailableException.guard(() -> tables(userId)));
        List<Map<String, Object>> live = new ArrayList<>();
        for (String session : sessions.indexed(userId)) {
            Map<String, Object> keys = sessions.dump(session);
            if (!keys.isEmpty()) {
                live.add(Map.of("sessionId", session, "keys", keys));
            }
        }
        export.put("liveSessions", live);
        return export;
    }

    private Map<String, List<Map<String, Object>>> tables(String userId) {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            Map<String, List<Map<String, Object>>> tables = new LinkedHashMap<>();
            for (String table : UserErasure.TABLES) {
                tables.put(table, rows(c, table, userId));
            }
            c.rollback();
            return tables;
        } catch (SQLException e) {
            throw new ProfileUnavailableException("the user's rows could not be read", e);
        }
    }

    private List<Map<String, Object>> rows(Connection c, String table, String userId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("select * from " + table + " where user_id = ? order by 1")) {
            s.setString(1, userId);
            try (ResultSet rs = s.executeQuery()) {
                ResultSetMetaData meta = rs.getMetaData();
                List<Map<String, Object>> rows = new ArrayList<>();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) {
                        row.put(meta.getColumnName(i), rs.getObject(i));
                    }
                    row.replaceAll((column, value) -> value(opened(table, column, userId, row, value)));
                    rows.add(row);
                }
                return rows;
            }
        }
    }

    /** A sealed value opened, with the row key the table binds its values to ({@link Place}); others as they are. */
    private Object opened(String table, String column, String userId, Map<String, Object> row, Object value) {
        String key = switch (table) {
            case "session_archive" -> (String) row.get("session_id");
            case "pending_request" -> String.valueOf(row.get("id"));
            default -> null;
        };
        if (value instanceof String text && MemoryCipher.sealed(text)) {
            return cipher.open(text, new Place(userId, table, column, key));
        }
        if (value instanceof byte[] bytes && MemoryCipher.sealed(bytes)) {
            return cipher.open(bytes, new Place(userId, table, column, key));
        }
        return value;
    }

    private Object value(Object column) {
        if (column instanceof Timestamp t) {
            return t.toInstant();
        }
        if (column instanceof String text && (text.startsWith("{") || text.startsWith("["))) {
            try {
                return json.readTree(text);
            } catch (JsonProcessingException e) {
                return text;
            }
        }
        return column;
    }
}

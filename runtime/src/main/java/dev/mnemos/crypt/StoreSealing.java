package dev.mnemos.crypt;

import io.agroal.api.AgroalDataSource;
import io.quarkus.arc.Unremovable;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Seals what Postgres still holds in plain text, for a deployment that turned encryption at rest on while it held
 * memory: every sealed column of every Mnemos table ({@link #COLUMNS}), in transactions of {@value #BATCH} rows, each locked
 * while it is sealed and skipped while another transaction holds it (a profile write seals its row itself). Online:
 * profile writes and steps go on. Redis needs no such pass: a session's plain values are
 * sealed as they are written, and every plain one leaves with its session (ended, or expired after
 * {@code quarkus.mnemos.session.ttl}).
 */
@Unremovable
@ApplicationScoped
public class StoreSealing {

    private static final Logger LOG = Logger.getLogger(StoreSealing.class);
    private static final int BATCH = 100;

    /**
     * A sealed column: its table, the row's key column, the column, whether it holds bytes, and whether the value's
     * {@link Place} names the row (as the entities seal it).
     */
    public record Column(String table, String key, String column, boolean bytes, boolean placeNamesRow) {

        /** A plain value: a text without the mark, bytes whose length a sealed value never has (MemoryCipher). */
        String plain() {
            return bytes ? "length(\"" + column + "\") % 4 = 0"
                    : "left(\"" + column + "\", " + MemoryCipher.TEXT_MARK.length() + ") <> ?";
        }

        public Place place(String userId, String row) {
            return new Place(userId, table, column, placeNamesRow ? row : null);
        }
    }

    /** Every sealed column of Postgres (the entities seal them; this list is what a pass over the store covers). */
    public static final List<Column> COLUMNS = List.of(
            new Column("profile_fact", "id", "text", false, false),
            new Column("profile_fact", "id", "embedding", true, false),
            new Column("profile_event", "id", "before", false, false),
            new Column("profile_event", "id", "after", false, false),
            new Column("profile_event", "id", "reason", false, false),
            new Column("promotion_candidate", "id", "candidate_key", false, false),
            new Column("promotion_candidate", "id", "text", false, false),
            new Column("promotion_candidate", "id", "reason", false, false),
            new Column("promotion_candidate", "id", "embedding", true, false),
            new Column("session_archive", "session_id", "final_state", false, true),
            new Column("session_archive", "session_id", "events", false, true),
            new Column("session_archive", "session_id", "report", false, true),
            new Column("session_archive", "session_id", "traces", false, true),
            new Column("profile_forgotten", "id", "embedding", true, false),
            new Column("pending_request", "id", "instruction", false, true));

    private final AgroalDataSource db;
    private final MemoryCipher cipher;

    public StoreSealing(AgroalDataSource db, MemoryCipher cipher) {
        this.db = db;
        this.cipher = cipher;
    }

    /**
     * Seals every plain value Postgres holds; answers how many it sealed.
     *
     * @throws EncryptionOffException when encryption at rest is off (no key configured)
     */
    public long sealPostgres() {
        if (!cipher.on()) {
            throw new EncryptionOffException("sealing the store");
        }
        long total = 0;
        for (Column column : COLUMNS) {
            int done;
            do {
                done = QuarkusTransaction.requiringNew().call(() -> batch(column));
                total += done;
            } while (done > 0);
        }
        LOG.infof("sealed %d plain values in Postgres", total);
        return total;
    }

    /** How many plain values Postgres still holds (0 once {@link #sealPostgres} ran with no write of a plain one since). */
    public long remaining() {
        long total = 0;
        try (Connection c = db.getConnection()) {
            for (Column column : COLUMNS) {
                try (PreparedStatement s = c.prepareStatement("select count(*) from " + column.table() + " where \""
                        + column.column() + "\" is not null and " + column.plain())) {
                    bindMark(s, column, 1);
                    try (ResultSet rs = s.executeQuery()) {
                        rs.next();
                        total += rs.getLong(1);
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the plain values could not be counted", e);
        }
        return total;
    }

    private int batch(Column column) {
        record Row(String key, String userId, Object value) {
        }
        String name = "\"" + column.column() + "\"";
        try (Connection c = db.getConnection()) {
            List<Row> rows = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("select " + column.key() + ", user_id, " + name + " from "
                    + column.table() + " where " + name + " is not null and " + column.plain() + " order by "
                    + column.key() + " limit ? for update skip locked")) {
                int next = bindMark(s, column, 1);
                s.setInt(next, BATCH);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new Row(rs.getString(1), rs.getString(2),
                                column.bytes() ? rs.getBytes(3) : rs.getString(3)));
                    }
                }
            }
            String keyCast = column.key().equals("id") ? "cast(? as bigint)" : "?";
            try (PreparedStatement s = c.prepareStatement("update " + column.table() + " set " + name + " = ? where "
                    + column.key() + " = " + keyCast)) {
                for (Row row : rows) {
                    Place place = column.place(row.userId(), row.key());
                    if (column.bytes()) {
                        s.setBytes(1, cipher.seal((byte[]) row.value(), place));
                    } else {
                        s.setString(1, cipher.seal((String) row.value(), place));
                    }
                    s.setString(2, row.key());
                    s.addBatch();
                }
                s.executeBatch();
            }
            return rows.size();
        } catch (SQLException e) {
            throw new IllegalStateException("plain values of " + column.table() + "." + column.column()
                    + " could not be sealed", e);
        }
    }

    private static int bindMark(PreparedStatement s, Column column, int at) throws SQLException {
        if (column.bytes()) {
            return at;
        }
        s.setString(at, MemoryCipher.TEXT_MARK);
        return at + 1;
    }
}

package dev.mnemos.schema;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/** Mnemos' Flyway history table, read without Flyway: whether a schema already has every bundled script. */
final class MigrationHistory {

    private final String table;

    MigrationHistory(String table) {
        this.table = table;
    }

    /**
     * Whether {@code schema}'s history records every script of {@code bundled} (version → checksum) as run, with the
     * same checksum, and no failed run. Anything else (no history, a pending, changed or unknown script, a failure) is
     * left to Flyway, which migrates, or reports what is wrong.
     */
    boolean upToDate(Connection connection, String schema, Map<String, Integer> bundled) throws SQLException {
        if (!exists(connection, schema)) {
            return false;
        }
        Map<String, Integer> applied = new HashMap<>();
        String sql = "select version, checksum, success from " + quoted(schema) + "." + quoted(table)
                + " where version is not null and type <> 'BASELINE'";
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                if (!rows.getBoolean(3)) {
                    return false;
                }
                int checksum = rows.getInt(2);
                applied.put(rows.getString(1), rows.wasNull() ? null : checksum);
            }
        }
        return applied.equals(bundled);
    }

    private boolean exists(Connection connection, String schema) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("select to_regclass(?) is not null")) {
            statement.setString(1, quoted(schema) + "." + quoted(table));
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() && rows.getBoolean(1);
            }
        }
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}

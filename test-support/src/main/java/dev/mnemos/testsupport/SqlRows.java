package dev.mnemos.testsupport;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

/** Reads rows straight from Postgres in tests, to check what a call really stored. */
public final class SqlRows {

    private SqlRows() {
    }

    public static long count(DataSource db, String sql, Object... params) throws Exception {
        return Long.parseLong(rows(db, sql, params).get(0).get(0));
    }

    /** Every row of the query, each as its columns' text. */
    public static List<List<String>> rows(DataSource db, String sql, Object... params) throws Exception {
        try (Connection c = db.getConnection(); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                st.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = st.executeQuery()) {
                List<List<String>> result = new ArrayList<>();
                while (rs.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        row.add(rs.getString(i));
                    }
                    result.add(row);
                }
                return result;
            }
        }
    }
}

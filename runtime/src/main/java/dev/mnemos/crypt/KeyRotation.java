package dev.mnemos.crypt;

import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rotation of the key-encryption key (docs/operations.md "Encryption at rest"): once every instance has the new key
 * as {@code quarkus.mnemos.encryption.key} (and the old one among {@code previous-keys}), {@link #rewrap()} re-wraps
 * every data key that another key wrapped. It reads no memory text: each data key is unwrapped and wrapped again,
 * and stays the same key, so every sealed value keeps opening and cached keys stay valid. Online: it works in small
 * transactions, each locking only the rows it re-wraps ({@code skip locked}), while profile writes go on.
 */
@ApplicationScoped
public class KeyRotation {

    private static final Logger LOG = Logger.getLogger(KeyRotation.class);
    private static final int BATCH = 100;

    private final AgroalDataSource db;
    private final KeyEncryptionKeys keks;

    public KeyRotation(AgroalDataSource db, KeyEncryptionKeys keks) {
        this.db = db;
        this.keks = keks;
    }

    /**
     * Re-wraps every data key not wrapped by the current key-encryption key; answers how many it re-wrapped.
     *
     * @throws EncryptionOffException when encryption at rest is off (no key-encryption key)
     */
    public long rewrap() {
        if (!keks.enabled()) {
            throw new EncryptionOffException("rotating the key-encryption key");
        }
        String current = keks.currentKeyId();
        long total = 0;
        int done;
        do {
            done = QuarkusTransaction.requiringNew().call(() -> batch(current));
            total += done;
        } while (done > 0);
        LOG.infof("re-wrapped %d data keys with the key-encryption key '%s'", total, current);
        return total;
    }

    /** How many data keys another key than the current one wraps (none when encryption at rest is off). */
    public long remaining() {
        if (!keks.enabled()) {
            return 0;
        }
        try (Connection c = db.getConnection();
                PreparedStatement s = c.prepareStatement("select count(*) from user_data_key where key_id <> ?")) {
            s.setString(1, keks.currentKeyId());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the data keys could not be counted", e);
        }
    }

    private int batch(String current) {
        record Row(String userId, KeyEncryptionKeys.Wrapped wrapped) {
        }
        try (Connection c = db.getConnection()) {
            List<Row> rows = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("select user_id, key_id, wrapped from user_data_key"
                    + " where key_id <> ? order by user_id limit ? for update skip locked")) {
                s.setString(1, current);
                s.setInt(2, BATCH);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new Row(rs.getString(1), new KeyEncryptionKeys.Wrapped(rs.getString(2), rs.getBytes(3))));
                    }
                }
            }
            try (PreparedStatement s = c.prepareStatement(
                    "update user_data_key set key_id = ?, wrapped = ?, wrapped_at = now() where user_id = ?")) {
                for (Row row : rows) {
                    byte[] key = keks.unwrap(row.wrapped());
                    KeyEncryptionKeys.Wrapped again;
                    try {
                        again = keks.wrap(key);
                    } finally {
                        Arrays.fill(key, (byte) 0);
                    }
                    s.setString(1, again.keyId());
                    s.setBytes(2, again.bytes());
                    s.setString(3, row.userId());
                    s.addBatch();
                }
                s.executeBatch();
            }
            return rows.size();
        } catch (SQLException e) {
            throw new IllegalStateException("the data keys could not be re-wrapped", e);
        }
    }
}

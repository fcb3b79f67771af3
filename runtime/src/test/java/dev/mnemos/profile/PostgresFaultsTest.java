package dev.mnemos.profile;

import jakarta.persistence.PersistenceException;
import org.hibernate.exception.GenericJDBCException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import javax.transaction.xa.XAException;

import static org.assertj.core.api.Assertions.assertThat;

class PostgresFaultsTest {

    static Throwable wrapped(Throwable cause) {
        return new PersistenceException("could not execute statement",
                new GenericJDBCException("commit failed", (SQLException) cause));
    }

    @Test
    void everyTransientSqlStateAnywhereInTheChainIsTransient() {
        for (String state : new String[] { "57P01", "57P02", "57P03", "08006", "08001", "08003", "40001", "40P01",
                "55P03", "57014", "53300" }) {
            assertThat(PostgresFaults.isTransient(wrapped(new SQLException("x", state)))).as(state).isTrue();
            assertThat(PostgresFaults.reason(new RuntimeException(new SQLException("x", state))))
                    .contains("SQL state " + state);
        }
    }

    @Test
    void aCommitThatFailedOnALostConnectionIsTransient() {
        Throwable rollback = new RuntimeException("ARJUNA016053: Could not commit transaction.",
                new IllegalStateException("commit", new SQLException("An I/O error occurred", "08006")));
        assertThat(PostgresFaults.isTransient(rollback)).isTrue();
        Throwable suppressed = new IllegalStateException("commit failed");
        suppressed.addSuppressed(new SQLException("terminating connection due to administrator command", "57P01"));
        assertThat(PostgresFaults.isTransient(suppressed)).isTrue();
        // as Narayana reports a commit lost with the connection (seen in PostgresFaultTest): the driver's
        // error is the cause of an XAException suppressed on the rollback, wrapped by ArC
        Throwable xa = new XAException("Error trying to transactionCommit local transaction");
        xa.initCause(new SQLException("An I/O error occurred while sending to the backend.", "08006"));
        Throwable commit = new Exception("ARJUNA016053: Could not commit transaction.");
        commit.addSuppressed(xa);
        assertThat(PostgresFaults.isTransient(new RuntimeException("Error invoking subclass method", commit))).isTrue();
        Throwable loop = new IllegalStateException("not a database failure");
        loop.addSuppressed(new IllegalStateException("still not", loop));
        assertThat(PostgresFaults.isTransient(loop)).isFalse();
    }

    @Test
    void anExhaustedPoolIsTransient() {
        assertThat(PostgresFaults.isTransient(new PersistenceException(
                new SQLException("Sorry, acquisition timeout!")))).isTrue();
        assertThat(PostgresFaults.isTransient(new SQLTransientConnectionException("timeout"))).isTrue();
    }

    @Test
    void bugsAndBadDataAreNotTransient() {
        for (String state : new String[] { "23505", "22021", "22P05", "42P01", "42601" }) {
            assertThat(PostgresFaults.isTransient(wrapped(new SQLException("x", state)))).as(state).isFalse();
        }
        assertThat(PostgresFaults.isTransient(new IllegalStateException("a bug"))).isFalse();
        assertThat(PostgresFaults.isTransient(null)).isFalse();
    }

    @Test
    void aCyclicCauseChainEnds() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertThat(PostgresFaults.isTransient(a)).isFalse();
    }
}

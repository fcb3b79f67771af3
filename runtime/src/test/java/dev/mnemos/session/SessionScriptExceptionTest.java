package dev.mnemos.session;

import io.vertx.core.http.ConnectionPoolTooBusyException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Redis' error reply to a script is a fault, not an outage; Redis refusing the script's write stays an outage. */
class SessionScriptExceptionTest {

    @Test
    void aScriptsOwnErrorIsNotAnOutage() {
        RuntimeException redis7 = new RuntimeException(
                "ERR user_script:21: too many results to unpack script: b589fad0, on @user_script:21.");
        assertThat(SessionScriptException.of("Redis did not answer", new RuntimeException("wrapped", redis7)))
                .isInstanceOf(SessionScriptException.class).hasMessageContaining("too many results to unpack");
        assertThat(SessionScriptException.of("Redis did not answer",
                new RuntimeException("ERR Error running script (call to f_0a1b): @user_script:5: attempt to index nil")))
                .isInstanceOf(SessionScriptException.class);
    }

    @Test
    void aFullPoolIsMnemosOwnUnavailableErrorWithNothingWritten() {
        RuntimeException busy = new CompletionException(
                new ConnectionPoolTooBusyException("Connection pool reached max wait queue size of 24"));
        assertThatThrownBy(() -> SessionStoreUnavailableException.guard(() -> {
            throw busy;
        })).isInstanceOfSatisfying(SessionStoreUnavailableException.class, e -> {
            assertThat(e.outcomeUnknown()).as("never sent").isFalse();
            assertThat(e).hasMessageContaining("quarkus.redis.max-pool-size").hasMessageContaining("nothing was written")
                    .hasCause(busy);
        });
    }

    @Test
    void redisRefusingTheScriptsWriteStaysAnOutage() {
        RuntimeException oom = SessionScriptException.of("Redis did not answer", new RuntimeException(
                "OOM command not allowed when used memory > 'maxmemory'. script: b589fad0, on @user_script:40."));
        assertThat(oom).isInstanceOf(SessionStoreUnavailableException.class);
        assertThat(((SessionStoreUnavailableException) oom).outOfMemory()).isTrue();
        assertThat(SessionScriptException.of("Redis did not answer", new RuntimeException(
                "READONLY You can't write against a read only replica. script: b589fad0, on @user_script:40.")))
                .isInstanceOf(SessionStoreUnavailableException.class);
        RuntimeException refused = SessionScriptException.of("Redis did not answer",
                new RuntimeException(new ConnectException("Connection refused")));
        assertThat(refused).isInstanceOf(SessionStoreUnavailableException.class);
        assertThat(((SessionStoreUnavailableException) refused).outcomeUnknown()).isFalse();
    }

    @Test
    void anErrorRedisAnswersBeforeRunningTheCommandWroteNothing() {
        assertThat(unknown("READONLY You can't write against a read only replica. script: b589fad0, on @user_script:40."))
                .isFalse();
        assertThat(unknown("MOVED 5798 127.0.0.1:7002")).isFalse();
        // a write and its WAIT in one batch: the write's own error is the batch's first
        assertThat(unknown("ERR [0] MOVED 5798 127.0.0.1:7002\nERR [1] WAIT cannot be used with replica instances."))
                .isFalse();
        assertThat(unknown("ERR [0] CLUSTERDOWN The cluster is down")).isFalse();
        assertThat(unknown("Failed obtaining connection to: redis://127.0.0.1:7002")).isFalse();
        // the write ran (no error of its own); only its WAIT failed
        assertThat(unknown("ERR [1] WAIT cannot be used with replica instances.")).isTrue();
        assertThat(unknown("Connection reset")).isTrue();
    }

    private static boolean unknown(String error) {
        RuntimeException failure = SessionScriptException.of("Redis did not answer", new RuntimeException(error));
        assertThat(failure).isInstanceOf(SessionStoreUnavailableException.class);
        return ((SessionStoreUnavailableException) failure).outcomeUnknown();
    }
}

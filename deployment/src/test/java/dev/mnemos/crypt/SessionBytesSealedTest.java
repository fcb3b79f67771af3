package dev.mnemos.crypt;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.RedisSessionStore;
import dev.mnemos.session.SessionConfig;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import dev.mnemos.testsupport.Holdings;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Base64;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What sealing costs in Redis (issue 50: within 1.3x of plain): the same workload written through the application's
 * store, which seals, and through a store built by hand on the same Redis and settings, which does not; the bytes are
 * Redis' own figure ({@code MEMORY USAGE <key> SAMPLES 0}) summed over each session's keys, as {@code RedisSessionStoreTest}
 * measures them.
 */
class SessionBytesSealedTest {

    static final String SCHEMA = "mnemos_rcrypt_b_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false")
            .overrideConfigKey("quarkus.datasource.jdbc.url", URL + "?currentSchema=" + SCHEMA)
            .overrideConfigKey("quarkus.mnemos.encryption.key",
                    Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes()))
            .setAfterAllCustomizer(SessionBytesSealedTest::dropSchema);

    @Inject
    SessionStore sealing;
    @Inject
    RedisDataSource redis;
    @Inject
    SessionConfig config;
    @Inject
    ObjectMapper json;

    /**
     * The hardest case: a sealed value carries 30 bytes of mark, nonce and tag (and 8/7 of its bytes as text), which
     * takes a 100-byte state value from Redis' 112-byte allocation to its 160-byte one, and the replay entry holds the
     * value sealed a second time (docs/benchmarks.md).
     */
    @Test
    void aThousandStepsOfHundredByteValuesTakeAtMostOnePointThreeTimesPlain() {
        RedisSessionStore plain = new RedisSessionStore(redis, config, json);
        long sealed = bytes(sealing, 1000, 100);
        long clear = bytes(plain, 1000, 100);
        double ratio = (double) sealed / clear;
        System.out.printf("1,000 steps of 100-byte values, retention %d: sealed %d B, plain %d B, %.2fx%n",
                config.historyRetention(), sealed, clear, ratio);
        assertThat(ratio).as("sealed / plain bytes in Redis").isLessThanOrEqualTo(1.3);
    }

    @Test
    void eightyStepsOfTenKilobyteValuesTakeAtMostOnePointThreeTimesPlain() {
        RedisSessionStore plain = new RedisSessionStore(redis, config, json);
        long sealed = bytes(sealing, 80, 10_000);
        long clear = bytes(plain, 80, 10_000);
        double ratio = (double) sealed / clear;
        System.out.printf("80 steps of 10 KB values, retention %d: sealed %d B, plain %d B, %.2fx%n",
                config.historyRetention(), sealed, clear, ratio);
        assertThat(ratio).as("sealed / plain bytes in Redis").isLessThanOrEqualTo(1.3);
    }

    /** A session of {@code steps} steps each adding a new collected value of {@code size} bytes; its bytes in Redis. */
    private long bytes(SessionStore store, int steps, int size) {
        String user = UUID.randomUUID().toString();
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("g").build()).by(user)).sessionId();
        for (int i = 0; i < steps; i++) {
            String value = String.format("%04d", i) + "v".repeat(size - 4);
            store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("k" + i, value).build()).by(user));
        }
        assertThat(store.get(id).collected()).hasSize(steps);
        long total = Holdings.sessionBytes(redis, id);
        store.delete(id);
        return total;
    }

    static void dropSchema() {
        try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
                Statement statement = connection.createStatement()) {
            statement.execute("drop schema if exists " + SCHEMA + " cascade");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

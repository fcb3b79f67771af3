package dev.mnemos.session;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ClientKillParams;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The step's blocking Redis connections on the real Redis of this machine (127.0.0.1:6379), and on
 * two stand-ins that fail the way a sick Redis does: a port nobody listens on, and a server that
 * accepts a connection, answers its first command and then never again (a paused Redis).
 */
class StepConnectionsTest {

    private static final String REDIS = "redis://127.0.0.1:6379";
    private static final Duration TIMEOUT = Duration.ofMillis(500);
    /** This test's own client name: killing "every step connection" must not touch other processes' ones. */
    private static final String CLIENT_NAME = "mnemos-step-" + UUID.randomUUID();
    private final List<StepConnections> opened = new ArrayList<>();
    private final String key = "mnemos-test:step-connections:" + UUID.randomUUID();

    @AfterEach
    void close() {
        opened.forEach(c -> c.close(null));
        try (Jedis redis = new Jedis("127.0.0.1", 6379)) {
            redis.del(key);
        }
    }

    private static Config quarkus(Map<String, String> values) {
        return new SmallRyeConfigBuilder().withDefaultValues(values).build();
    }

    private static SessionConfig session(boolean enabled, int maxSize) {
        SessionConfig.StepPool pool = proxy(SessionConfig.StepPool.class,
                Map.of("enabled", enabled, "maxSize", maxSize, "clientName", CLIENT_NAME));
        return proxy(SessionConfig.class, Map.of("redisTimeout", TIMEOUT, "stepPool", pool));
    }

    private static <T> T proxy(Class<T> type, Map<String, Object> values) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (p, m, args) -> {
            if (!values.containsKey(m.getName())) {
                throw new UnsupportedOperationException(m.getName());
            }
            return values.get(m.getName());
        }));
    }

    private StepConnections open(String hosts, boolean enabled, int maxSize) {
        StepConnections connections = new StepConnections(session(enabled, maxSize),
                quarkus(Map.of("quarkus.redis.hosts", hosts)), new SimpleMeterRegistry());
        opened.add(connections);
        return connections;
    }

    @Test
    void usedForOneStandaloneRedisNamedByAUrl() {
        assertThat(StepPool.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS)))).isNull();
        assertThat(StepPool.unusable(quarkus(Map.of("quarkus.redis.hosts", "rediss://user:secret@redis.example:6380/2",
                "quarkus.redis.client-type", "standalone")))).isNull();
    }

    @Test
    void notUsedWhereItCannotReachRedisTheWayTheQuarkusClientDoes() {
        assertThat(StepPool.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS, "quarkus.redis.client-type",
                "cluster")))).contains("cluster");
        assertThat(StepPool.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS + ",redis://127.0.0.1:6380"))))
                .contains("several hosts");
        assertThat(StepPool.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS,
                "quarkus.redis.tls-configuration-name", "mine")))).contains("TLS");
        assertThat(StepPool.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS,
                "quarkus.redis.hosts-provider-name", "mine")))).contains("hosts provider");
        assertThat(StepPool.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS,
                "quarkus.redis.tcp.proxy-options.host", "proxy.example")))).contains("proxy");
        assertThat(StepPool.unusable(quarkus(Map.of("quarkus.redis.hosts", "rediss://redis.example:6380",
                "quarkus.tls.trust-store.pem.certs", "ca.pem")))).contains("TLS settings");
        assertThat(StepPool.unusable(quarkus(Map.of("quarkus.redis.hosts", "rediss://redis.example:6380",
                "quarkus.redis.tls.trust-all", "true")))).contains("TLS settings");
        assertThat(StepPool.unusable(quarkus(Map.of("quarkus.redis.hosts", "unix:///run/redis.sock"))))
                .contains("unix");
        assertThat(StepPool.unusable(quarkus(Map.of()))).contains("without quarkus.redis.hosts");
        assertThatThrownBy(() -> open(REDIS + ",redis://127.0.0.1:6380", true, 4)).as("refused at boot")
                .hasMessageContaining("several hosts").hasMessageContaining("quarkus.mnemos.session.step-pool.enabled=false");
        assertThat(open(REDIS, false, 4).enabled()).as("turned off").isFalse();
    }

    @Test
    void runsScriptsAndReadsOnConnectionsNamedForCLIENTLIST() {
        StepConnections connections = open(REDIS, true, 4);
        assertThat(connections.enabled()).isTrue();
        SessionScripts set = SessionScripts.of("redis.call('SET', KEYS[1], ARGV[1]) return {1, tonumber(ARGV[1])}");
        assertThat(SessionScripts.plainLongs(connections.eval(set, List.of(key), List.of("42"), false))).containsExactly(1, 42);
        assertThat(connections.get(key)).contains("42");
        assertThat(connections.get(key + ":missing")).isEmpty();
        try (Jedis redis = new Jedis("127.0.0.1", 6379)) {
            assertThat(redis.clientList()).contains("name=" + CLIENT_NAME);
            // Redis lost its scripts (a restart, SCRIPT FLUSH): the script is sent again
            redis.scriptFlush();
        }
        assertThat(SessionScripts.plainLongs(connections.eval(set, List.of(key), List.of("43"), false))).containsExactly(1, 43);
        assertThat(connections.get(key)).contains("43");
        SessionScripts pairs = SessionScripts.of("return {'a', '1', 'b', false, 'c', '3'}");
        assertThat(SessionScripts.plainPairs(connections.eval(pairs, List.of(key), List.of(), true)))
                .isEqualTo(Map.of("a", "1", "c", "3"));
    }

    @Test
    void readsAScriptAndAnotherKeyInOneCall() {
        StepConnections connections = open(REDIS, true, 4);
        String other = key + ":other";
        SessionScripts read = SessionScripts.of("return {'value', redis.call('GET', KEYS[1]) or 'none'}");
        try (Jedis redis = new Jedis("127.0.0.1", 6379)) {
            redis.set(key, "7");
            redis.set(other, "revision-3");
        }
        try {
            ScriptTransport.ReadAndGet both = connections.evalAndGet(read, List.of(key), List.of(), other);
            assertThat(SessionScripts.plainPairs(both.reply())).isEqualTo(Map.of("value", "7"));
            assertThat(both.value()).isEqualTo("revision-3");
            assertThat(connections.evalAndGet(read, List.of(key), List.of(), other + ":missing").value()).isNull();
            try (Jedis redis = new Jedis("127.0.0.1", 6379)) {
                // Redis lost its scripts: the script is sent again, and the pipeline's other reply still read
                redis.scriptFlush();
            }
            ScriptTransport.ReadAndGet again = connections.evalAndGet(read, List.of(key), List.of(), other);
            assertThat(SessionScripts.plainPairs(again.reply())).isEqualTo(Map.of("value", "7"));
            assertThat(again.value()).isEqualTo("revision-3");
            // the connection is left in step: a later call reads its own reply
            assertThat(connections.get(key)).contains("7");
        } finally {
            try (Jedis redis = new Jedis("127.0.0.1", 6379)) {
                redis.del(other);
            }
        }
    }

    @Test
    void aReadSentBeforeItsReplyIsReadIsOnRedisMeanwhileAndOneNeverReadLeavesThePoolInStep() throws Exception {
        StepConnections connections = open(REDIS, true, 1);
        String other = key + ":other";
        // the script records that it ran: its reply is not read yet when the record is looked at
        SessionScripts read = SessionScripts.of(
                "redis.call('INCR', KEYS[1] .. ':ran') return {'value', redis.call('GET', KEYS[1]) or 'none'}");
        try (Jedis redis = new Jedis("127.0.0.1", 6379)) {
            redis.set(key, "7");
            redis.set(other, "revision-3");
        }
        try (Jedis redis = new Jedis("127.0.0.1", 6379)) {
            try (Sent<ScriptTransport.ReadAndGet> sent = connections.sendEvalAndGet(read, List.of(key), List.of(), other)) {
                long deadline = System.nanoTime() + TIMEOUT.toNanos();
                while (redis.get(key + ":ran") == null) {
                    assertThat(System.nanoTime()).as("the script ran before its reply was asked for").isLessThan(deadline);
                    Thread.onSpinWait();
                }
                ScriptTransport.ReadAndGet both = sent.reply();
                assertThat(SessionScripts.plainPairs(both.reply())).isEqualTo(Map.of("value", "7"));
                assertThat(both.value()).isEqualTo("revision-3");
            }
            // a read whose replies were never read: its connection (the pool's only one) is not given to the next call
            connections.sendEvalAndGet(read, List.of(key), List.of(), other).close();
            assertThat(connections.get(other)).as("the next call reads its own reply").contains("revision-3");
            redis.set(key, "8");
            try (Sent<ScriptTransport.ReadAndGet> sent = connections.sendEvalAndGet(read, List.of(key), List.of(), other)) {
                assertThat(SessionScripts.plainPairs(sent.reply().reply())).isEqualTo(Map.of("value", "8"));
            }
        } finally {
            try (Jedis redis = new Jedis("127.0.0.1", 6379)) {
                redis.del(other, key + ":ran");
            }
        }
    }

    @Test
    void aReadOnAConnectionRedisClosedIsTriedOnceMoreAWriteIsNot() {
        StepConnections connections = open(REDIS, true, 4);
        SessionScripts set = SessionScripts.of("redis.call('SET', KEYS[1], ARGV[1]) return {1}");
        connections.eval(set, List.of(key), List.of("1"), false);
        killStepClients();
        assertThat(connections.get(key)).as("read again on a new connection").contains("1");
        killStepClients();
        assertThatThrownBy(() -> connections.eval(set, List.of(key), List.of("2"), false))
                .isInstanceOfSatisfying(SessionStoreUnavailableException.class,
                        e -> assertThat(e.outcomeUnknown()).as("sent on a connection that broke").isTrue());
        assertThat(connections.eval(set, List.of(key), List.of("3"), false)).as("the next call opens a new one")
                .isEqualTo(List.of(1L));
    }

    /** Closes, from Redis' side, every connection of the step pools (as a Redis restart does). */
    private static void killStepClients() {
        try (Jedis redis = new Jedis("127.0.0.1", 6379)) {
            for (String client : redis.clientList().split("\n")) {
                if (client.contains("name=" + CLIENT_NAME + " ")) {
                    String id = client.substring(client.indexOf("id=") + 3, client.indexOf(' '));
                    redis.clientKill(new ClientKillParams().id(id));
                }
            }
        }
    }

    @Test
    void aRefusedConnectionSaysNothingWasSent() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        StepConnections connections = open("redis://127.0.0.1:" + port, true, 4);
        assertThatThrownBy(() -> connections.get(key)).isInstanceOfSatisfying(SessionStoreUnavailableException.class,
                e -> assertThat(e.outcomeUnknown()).isFalse());
    }

    @Test
    void aRedisThatStopsAnsweringTimesOutWithinTheRedisTimeout() throws Exception {
        try (SilentRedis silent = new SilentRedis()) {
            StepConnections connections = open("redis://127.0.0.1:" + silent.port(), true, 1);
            long start = System.nanoTime();
            assertThatThrownBy(() -> connections.get(key)).isInstanceOf(TimeoutException.class)
                    .hasMessageContaining("within " + TIMEOUT.toMillis() + " ms");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(millis).isBetween(TIMEOUT.toMillis(), TIMEOUT.toMillis() + 2_000);
            // the one connection broke and was dropped; a new one cannot be opened in time: nothing is sent
            assertThatThrownBy(() -> connections.get(key)).isInstanceOfSatisfying(
                    SessionStoreUnavailableException.class, e -> assertThat(e.outcomeUnknown()).isFalse());
        }
    }

    /** Answers the first command of the first connection (the client's name) with +OK, then nothing. */
    static final class SilentRedis implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0);
        private final List<Socket> accepted = new ArrayList<>();
        private final Thread acceptor;

        SilentRedis() throws IOException {
            acceptor = new Thread(this::serve, "silent-redis");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return server.getLocalPort();
        }

        private void serve() {
            Map<Socket, Boolean> answered = new HashMap<>();
            try {
                while (!server.isClosed()) {
                    Socket socket = server.accept();
                    synchronized (accepted) {
                        accepted.add(socket);
                    }
                    if (answered.isEmpty()) {
                        answered.put(socket, true);
                        InputStream in = socket.getInputStream();
                        byte[] buffer = new byte[4096];
                        in.read(buffer);
                        socket.getOutputStream().write("+OK\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                }
            } catch (IOException e) {
                // closed
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
            synchronized (accepted) {
                for (Socket socket : accepted) {
                    socket.close();
                }
            }
        }
    }
}

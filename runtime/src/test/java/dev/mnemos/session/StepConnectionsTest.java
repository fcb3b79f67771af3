package dev.mnemos.session;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ClientKillParams;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

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
        assertThat(StepConnections.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS)))).isNull();
        assertThat(StepConnections.unusable(quarkus(Map.of("quarkus.redis.hosts", "rediss://user:secret@redis.example:6380/2",
                "quarkus.redis.client-type", "standalone")))).isNull();
    }

    @Test
    void notUsedWhereItCannotReachRedisTheWayTheQuarkusClientDoes() {
        assertThat(StepConnections.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS, "quarkus.redis.client-type",
                "cluster")))).contains("cluster");
        assertThat(StepConnections.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS + ",redis://127.0.0.1:6380"))))
                .contains("several hosts");
        assertThat(StepConnections.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS,
                "quarkus.redis.tls-configuration-name", "mine")))).contains("TLS");
        assertThat(StepConnections.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS,
                "quarkus.redis.hosts-provider-name", "mine")))).contains("hosts provider");
        assertThat(StepConnections.unusable(quarkus(Map.of("quarkus.redis.hosts", REDIS,
                "quarkus.redis.tcp.proxy-options.host", "proxy.example")))).contains("proxy");
        assertThat(StepConnections.unusable(quarkus(Map.of("quarkus.redis.hosts", "rediss://redis.example:6380",
                "quarkus.tls.trust-store.pem.certs", "ca.pem")))).contains("TLS settings");
        assertThat(StepConnections.unusable(quarkus(Map.of("quarkus.redis.hosts", "rediss://redis.example:6380",
                "quarkus.redis.tls.trust-all", "true")))).contains("TLS settings");
        assertThat(StepConnections.unusable(quarkus(Map.of("quarkus.redis.hosts", "unix:///run/redis.sock"))))
                .contains("unix");
        assertThat(StepConnections.unusable(quarkus(Map.of()))).contains("without quarkus.redis.hosts");
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
    void aScriptAndAGetAlongWithItAreAnsweredTogether() {
        StepConnections connections = open(REDIS, true, 4);
        SessionScripts set = SessionScripts.of("redis.call('SET', KEYS[1], ARGV[1]) return {'a', ARGV[1]}");
        connections.eval(set, List.of(key), List.of("7"), false);
        SessionScripts read = SessionScripts.of("return {'a', redis.call('GET', KEYS[1])}");

        assertThat(connections.evalAlong(read, List.of(key), List.of(), key))
                .isEqualTo(new SessionScripts.Along(List.of("a", "7"), true, "7"));
        assertThat(connections.evalAlong(read, List.of(key), List.of(), key + ":missing"))
                .isEqualTo(new SessionScripts.Along(List.of("a", "7"), true, null));
        try (Jedis redis = new Jedis("127.0.0.1", 6379)) {
            redis.hset(key + ":hash", "f", "v");
            redis.scriptFlush();
        }
        try {
            // a GET of a hash is an error reply: the script's reply stands, the value is not read; and Redis
            // lost its scripts: the script is sent again on its own
            assertThat(connections.evalAlong(read, List.of(key), List.of(), key + ":hash"))
                    .isEqualTo(new SessionScripts.Along(List.of("a", "7"), false, null));
        } finally {
            try (Jedis redis = new Jedis("127.0.0.1", 6379)) {
                redis.del(key + ":hash");
            }
        }
    }

    @Test
    void theGetAlongIsSentBeforeTheScriptIsAnswered() throws Exception {
        // a server that answers the script only once the GET has arrived: a client that waited for the
        // script's reply before sending the GET would time out here
        try (PipelineOnlyRedis server = new PipelineOnlyRedis()) {
            StepConnections connections = open("redis://127.0.0.1:" + server.port(), true, 1);
            SessionScripts read = SessionScripts.of("return {'a', '1'}");

            assertThat(connections.evalAlong(read, List.of(key), List.of(), key))
                    .isEqualTo(new SessionScripts.Along(List.of("a", "1"), true, "42"));
            assertThat(server.commands()).containsSubsequence("EVALSHA", "GET");
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

    /**
     * Speaks just enough RESP for one connection: +OK to the handshake, a SHA to SCRIPT LOAD, and the
     * reply to an EVALSHA only after the GET that follows it has arrived, then the GET's ("42").
     */
    static final class PipelineOnlyRedis implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0);
        private final List<String> commands = new CopyOnWriteArrayList<>();
        private volatile Socket socket;

        PipelineOnlyRedis() throws IOException {
            Thread serving = new Thread(this::serve, "pipeline-only-redis");
            serving.setDaemon(true);
            serving.start();
        }

        int port() {
            return server.getLocalPort();
        }

        List<String> commands() {
            return commands;
        }

        private void serve() {
            try (Socket accepted = server.accept()) {
                socket = accepted;
                DataInputStream in = new DataInputStream(
                        new BufferedInputStream(accepted.getInputStream()));
                OutputStream out = accepted.getOutputStream();
                boolean scriptWaiting = false;
                while (true) {
                    String name = command(in);
                    commands.add(name);
                    String reply;
                    if (name.equals("EVALSHA")) {
                        scriptWaiting = true;
                        continue;
                    } else if (name.equals("GET")) {
                        reply = (scriptWaiting ? "*2\r\n$1\r\na\r\n$1\r\n1\r\n" : "") + "$2\r\n42\r\n";
                        scriptWaiting = false;
                    } else if (name.equals("SCRIPT")) {
                        reply = "$40\r\n" + "0".repeat(40) + "\r\n";
                    } else {
                        reply = "+OK\r\n";
                    }
                    out.write(reply.getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            } catch (IOException e) {
                // closed
            }
        }

        /** Reads one command (an array of bulk strings); returns its name, upper case. */
        private static String command(DataInputStream in) throws IOException {
            int count = Integer.parseInt(line(in).substring(1));
            String name = null;
            for (int i = 0; i < count; i++) {
                byte[] arg = new byte[Integer.parseInt(line(in).substring(1))];
                in.readFully(arg);
                line(in);
                if (name == null) {
                    name = new String(arg, StandardCharsets.US_ASCII).toUpperCase(Locale.ROOT);
                }
            }
            return name;
        }

        private static String line(DataInputStream in) throws IOException {
            StringBuilder text = new StringBuilder();
            for (int c = in.read(); c != '\r'; c = in.read()) {
                if (c < 0) {
                    throw new EOFException();
                }
                text.append((char) c);
            }
            in.read(); // \n
            return text.toString();
        }

        @Override
        public void close() throws IOException {
            server.close();
            if (socket != null) {
                socket.close();
            }
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

package dev.mnemos.crypt;

import dev.mnemos.session.SessionKeys;
import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.FreePorts;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static dev.mnemos.testsupport.Calls.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Redis half of issue 50's erase test: a Redis of the test's own writes every command to its append-only file
 * ({@code appendonly yes}, {@code appendfsync always}); the file is copied while a user's session is live, the user is
 * erased, and the sealed values of their session taken from the copy no longer open (their data key is gone), while
 * another user's, from the same copy, still do. Hers do not open in the application that erased her either, though it
 * had just read them (it remembers the values it read, opened).
 */
class SessionEraseAofTest {

    static final String SCHEMA = "mnemos_rcrypt_aof_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";
    /** Where the test's Redis keeps its files, for the test's body (the application loads this class again). */
    static final String DIR = "mnemos.test.aof-dir";
    /** Started before the application (this class' copy that JUnit loaded), stopped after it. */
    static final AofRedis REDIS = new AofRedis();

    @RegisterExtension
    static final QuarkusUnitTest APP = app();

    private static QuarkusUnitTest app() {
        QuarkusUnitTest app = RestApi.on(RestApi.withServerSettings()
                .overrideConfigKey("quarkus.datasource.jdbc.url", URL + "?currentSchema=" + SCHEMA)
                .overrideConfigKey("quarkus.mnemos.encryption.key",
                        Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes())));
        return app.setBeforeAllCustomizer(() -> {
            REDIS.start();
            System.setProperty(DIR, REDIS.dir.toString());
            app.overrideConfigKey("quarkus.redis.hosts", "redis://127.0.0.1:" + REDIS.port);
        }).setAfterAllCustomizer(() -> {
            REDIS.stop();
            dropSchema();
        });
    }

    @Inject
    AgroalDataSource db;
    @Inject
    EncryptionConfig config;
    @Inject
    SealedSessionValues appValues;

    @Test
    void afterAnEraseTheUsersSessionValuesInACopiedAppendOnlyFileDoNotOpen() throws Exception {
        String alice = "alice-" + UUID.randomUUID();
        String bob = "bob-" + UUID.randomUUID();
        String tag = "a" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        String hers = task(alice, "Row across the fjord " + tag);
        String his = task(bob, "Cycle round the lake " + tag);
        Path copy = AofRedis.copyAppendOnlyFiles(Path.of(System.getProperty(DIR)));
        byte[] aof = AofRedis.read(copy);
        assertThat(new String(aof, StandardCharsets.ISO_8859_1)).as("the copied AOF holds the sessions")
                .contains(SessionKeys.state(hers), SessionKeys.state(his)).doesNotContain(tag);

        List<String[]> herGoals = goals(aof, hers);
        List<String[]> hisGoals = goals(aof, his);
        assertThat(herGoals).isNotEmpty();
        assertThat(hisGoals).isNotEmpty();
        for (String[] goal : herGoals) {
            // this application now remembers them opened
            assertThat(appValues.open(alice, goal[0], goal[1])).contains(tag);
        }

        as(alice).delete("/v1/me").then().statusCode(200);
        // a fresh Mnemos with the same key-encryption key: nothing of this application's memory, every data key read
        // from Postgres again
        SealedSessionValues values = new SealedSessionValues(
                new MemoryCipher(new DataKeys(db, new ConfiguredKeyEncryptionKeys(config), config)));

        for (String[] goal : herGoals) {
            assertThatThrownBy(() -> values.open(alice, goal[0], goal[1])).isInstanceOf(SealedValueException.class)
                    .hasMessageContaining("has no data key");
            assertThatThrownBy(() -> appValues.open(alice, goal[0], goal[1])).as("this application's memory")
                    .isInstanceOf(SealedValueException.class).hasMessageContaining("has no data key");
        }
        for (String[] goal : hisGoals) {
            assertThat(values.open(bob, goal[0], goal[1])).contains(tag);
        }
    }

    private static String task(String user, String goal) {
        String session = as(user).body(Map.of("goal", goal)).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
        as(user).body(Map.of("patch", Map.of("context", "Two days in June " + goal, "putCollected",
                Map.of("boat", "A red canoe " + goal)))).post("/v1/sessions/{id}/steps", session).then().statusCode(200);
        return session;
    }

    /**
     * The sealed values of the session's state fields {@code goal}, {@code context} and {@code k:…} written by the
     * commands the file holds (scripts are written as their effects: HSET state field value …), as place and value.
     */
    private static List<String[]> goals(byte[] aof, String session) {
        List<String[]> found = new ArrayList<>();
        for (List<String> command : Resp.commands(aof)) {
            if (command.size() > 3 && command.get(0).equalsIgnoreCase("HSET")
                    && command.get(1).equals(SessionKeys.state(session))) {
                for (int i = 2; i + 1 < command.size(); i += 2) {
                    String field = command.get(i);
                    String place = field.equals("goal") || field.equals("context") ? field
                            : field.startsWith("k:") ? "k" : null;
                    if (place != null && command.get(i + 1).startsWith(MemoryCipher.DENSE_MARK)) {
                        found.add(new String[] { place, command.get(i + 1) });
                    }
                }
            }
        }
        return found;
    }

    /** The commands of an append-only file (RESP arrays of bulk strings); sealed values are 7-bit text. */
    static final class Resp {

        static List<List<String>> commands(byte[] aof) {
            List<List<String>> commands = new ArrayList<>();
            int[] at = { 0 };
            while (at[0] < aof.length) {
                if (aof[at[0]] != '*') {
                    at[0]++;
                    continue;
                }
                int n = Integer.parseInt(line(aof, at).substring(1));
                List<String> command = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    int length = Integer.parseInt(line(aof, at).substring(1));
                    command.add(new String(aof, at[0], length, StandardCharsets.UTF_8));
                    at[0] += length + 2;
                }
                commands.add(command);
            }
            return commands;
        }

        private static String line(byte[] aof, int[] at) {
            int start = at[0];
            while (aof[at[0]] != '\r') {
                at[0]++;
            }
            String line = new String(aof, start, at[0] - start, StandardCharsets.US_ASCII);
            at[0] += 2;
            return line;
        }
    }

    /** A {@code redis-server} of the test's own, writing every command to its append-only file at once. */
    static final class AofRedis {

        int port;
        Path dir;
        private Process process;

        void start() {
            try {
                dir = Files.createTempDirectory("mnemos-aof");
                port = FreePorts.one();
                process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                        "--dir", dir.toString(), "--save", "", "--appendonly", "yes", "--appendfsync", "always")
                        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
                awaitPing();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void awaitPing() {
            long until = System.currentTimeMillis() + 20_000;
            while (System.currentTimeMillis() < until) {
                try (Socket socket = new Socket("127.0.0.1", port)) {
                    socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                    byte[] reply = new byte[7];
                    if (socket.getInputStream().read(reply) > 0 && new String(reply).startsWith("+PONG")) {
                        return;
                    }
                } catch (IOException e) {
                    // not listening yet
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            stop();
            throw new IllegalStateException("redis-server on port " + port + " did not answer PING");
        }

        /** A copy of the append-only files (Redis 7: the {@code appendonlydir} directory), as a backup takes them. */
        static Path copyAppendOnlyFiles(Path dir) throws IOException {
            Path copy = Files.createTempDirectory("mnemos-aof-copy");
            try (Stream<Path> files = Files.list(dir.resolve("appendonlydir"))) {
                for (Path file : files.toList()) {
                    Files.copy(file, copy.resolve(file.getFileName()));
                }
            }
            return copy;
        }

        /** The commands of the copied files, in order (the incremental files; the base one is an empty RDB). */
        static byte[] read(Path copy) throws IOException {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            try (Stream<Path> files = Files.list(copy)) {
                for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".incr.aof")).sorted().toList()) {
                    try (InputStream in = Files.newInputStream(file)) {
                        in.transferTo(all);
                    }
                }
            }
            delete(copy);
            return all.toByteArray();
        }

        void stop() {
            if (process == null) {
                return;
            }
            process.destroy();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            delete(dir);
        }

        private static void delete(Path dir) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // left for the OS to clean
            }
        }
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

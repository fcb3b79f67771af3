package dev.mnemos.promotion;

import dev.mnemos.testsupport.FreePorts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Postgres cluster owned by one test: initdb into a temporary directory as the {@code postgres} OS user, run
 * on its own port with pg_ctl, stopped ({@code immediate} = a crash, {@code fast} = an admin shutdown) and
 * started again while the application's pool holds connections. {@link #start()} runs before the test's application
 * starts and {@link #stop()} after it stopped (the {@code QuarkusUnitTest}'s customizers). The test class is loaded
 * twice, once to configure the application and once inside it, and so is this class: its port and directory are
 * system properties, which both copies read.
 */
public final class TestPostgres {

    private static final String PORT = "mnemos.test-postgres.port";
    private static final String DIR = "mnemos.test-postgres.dir";

    private TestPostgres() {
    }

    /** Initialises and starts the cluster, with a database {@code test}; answers the application's datasource settings. */
    static Map<String, String> start() {
        int port = FreePorts.one();
        try {
            Path dir = Files.createTempDirectory("mnemos-pg-");
            System.setProperty(PORT, Integer.toString(port));
            System.setProperty(DIR, dir.toString());
            run("chown", "postgres:postgres", dir.toString());
            asPostgres(bin("initdb"), "-D", data(), "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8");
            startServer(true);
            asPostgres(bin("createdb"), "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", "postgres", "test");
        } catch (IOException e) {
            throw new IllegalStateException("cannot set up the test's Postgres", e);
        }
        return Map.of("quarkus.datasource.jdbc.url",
                "jdbc:postgresql://127.0.0.1:" + port + "/test?currentSchema=mnemos&connectTimeout=2&socketTimeout=10",
                "quarkus.datasource.jdbc.acquisition-timeout", "1s",
                "quarkus.datasource.jdbc.max-size", "8",
                "quarkus.datasource.jdbc.background-validation-interval", "1s");
    }

    /** Stops the cluster and deletes its directory. */
    static void stop() {
        String dir = System.getProperty(DIR);
        if (dir == null) {
            return;
        }
        try {
            stopServer("immediate");
        } finally {
            try (Stream<Path> files = Files.walk(Path.of(dir))) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a leftover temporary directory is harmless
            }
            System.clearProperty(DIR);
            System.clearProperty(PORT);
        }
    }

    /** Starts the server; with {@code wait} returns once it accepts connections, else at once (it is still starting up). */
    static synchronized void startServer(boolean wait) {
        asPostgres(bin("pg_ctl"), "-D", data(), "-l", dir().resolve("log").toString(), wait ? "-w" : "-W", "-o",
                "-p " + port() + " -k " + dir() + " -c listen_addresses=127.0.0.1 -c max_connections=40", "start");
    }

    /**
     * {@code immediate}: the server dies without a checkpoint (as in a crash; the next start recovers); {@code fast}: an admin
     * shutdown.
     */
    static synchronized void stopServer(String mode) {
        asPostgres(bin("pg_ctl"), "-D", data(), "-m", mode, "-w", "stop");
    }

    /** Whether the server answers a query now. */
    static boolean ready() {
        try {
            return new ProcessBuilder("runuser", "-u", "postgres", "--", bin("pg_isready"), "-h", "127.0.0.1", "-p",
                    Integer.toString(port())).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static int port() {
        return Integer.parseInt(System.getProperty(PORT));
    }

    private static Path dir() {
        return Path.of(System.getProperty(DIR));
    }

    private static String data() {
        return dir().resolve("data").toString();
    }

    static String bin(String tool) {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin").resolve(tool)).filter(Files::isExecutable)
                    .max(Comparator.naturalOrder()).orElseThrow(() -> new IllegalStateException("no " + tool))
                    .toString();
        } catch (IOException e) {
            throw new IllegalStateException("no Postgres binaries under /usr/lib/postgresql", e);
        }
    }

    static void asPostgres(String... command) {
        List<String> all = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
        all.addAll(List.of(command));
        run(all.toArray(String[]::new));
    }

    static void run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(String.join(" ", command) + " failed", e);
        }
    }
}

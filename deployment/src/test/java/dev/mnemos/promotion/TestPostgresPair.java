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
 * A Postgres primary and a streaming standby owned by one test, in a temporary directory, each on its own port: the
 * primary is initialised with initdb, the standby cloned from it with {@code pg_basebackup -R --checkpoint=fast}, and
 * replication is made synchronous ({@code synchronous_standby_names = '*'}, {@code synchronous_commit = on}): a commit
 * is acknowledged once the standby has flushed it. {@link #killPrimary()} is a crash ({@code kill -9} of the postmaster and
 * every process it
 * started); {@link #promoteStandby()} is what a failover controller (pg_auto_failover, Patroni) does next,
 * {@code pg_ctl promote}. The promoted standby has no standby of its own and so commits alone. Like
 * {@link TestPostgres}, the ports and directory are system properties: the test class is loaded twice.
 */
public final class TestPostgresPair {

    private static final String PRIMARY_PORT = "mnemos.test-postgres-pair.primary";
    private static final String STANDBY_PORT = "mnemos.test-postgres-pair.standby";
    private static final String DIR = "mnemos.test-postgres-pair.dir";

    private TestPostgresPair() {
    }

    /**
     * Starts both, with a database {@code test}; answers the application's datasource settings: a multi-host URL whose
     * driver connects to whichever host is the primary ({@code targetServerType=primary}), and otherwise the pool's
     * defaults (the extension's {@code validate-on-borrow} replaces the connections to the dead primary).
     */
    static Map<String, String> start() {
        int primary = FreePorts.one();
        int standby = FreePorts.one();
        try {
            Path dir = Files.createTempDirectory("mnemos-pg-pair-");
            System.setProperty(PRIMARY_PORT, Integer.toString(primary));
            System.setProperty(STANDBY_PORT, Integer.toString(standby));
            System.setProperty(DIR, dir.toString());
            TestPostgres.run("chown", "postgres:postgres", dir.toString());
            TestPostgres.asPostgres(TestPostgres.bin("initdb"), "-D", data("primary"), "-U", "postgres", "-A", "trust",
                    "--no-sync", "-E", "UTF8");
            startServer("primary", primary);
            TestPostgres.asPostgres(TestPostgres.bin("createdb"), "-h", "127.0.0.1", "-p", Integer.toString(primary),
                    "-U", "postgres", "test");
            // --checkpoint=fast: the backup starts after an immediate checkpoint; the default (spread) paces the
            // checkpoint's writes over checkpoint_completion_target x checkpoint_timeout, which took 95 s here (1.4 s)
            TestPostgres.asPostgres(TestPostgres.bin("pg_basebackup"), "-h", "127.0.0.1", "-p",
                    Integer.toString(primary), "-U", "postgres", "-D", data("standby"), "-R", "-X", "stream",
                    "--no-sync", "--checkpoint=fast");
            startServer("standby", standby);
            psql(primary, "alter system set synchronous_standby_names = '*'");
            psql(primary, "select pg_reload_conf()");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!psql(primary, "select sync_state from pg_stat_replication").contains("sync")) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the standby did not become a synchronous standby");
                }
                Thread.sleep(100);
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot set up the test's Postgres primary and standby", e);
        }
        return Map.of("quarkus.datasource.jdbc.url", url(),
                "quarkus.datasource.jdbc.acquisition-timeout", "1s",
                "quarkus.datasource.jdbc.max-size", "16");
    }

    /** The URL an operator writes for a primary and its standby (docs/operations.md). */
    static String url() {
        return url(port(PRIMARY_PORT), port(STANDBY_PORT));
    }

    /** The URL of docs/operations.md for two hosts, either of which may be the primary (also {@link TestPgAutoFailover}). */
    static String url(int primary, int standby) {
        return "jdbc:postgresql://127.0.0.1:" + primary + ",127.0.0.1:" + standby
                + "/test?targetServerType=primary&hostRecheckSeconds=2&connectTimeout=2&socketTimeout=10"
                + "&currentSchema=mnemos";
    }

    /**
     * {@code kill -9} of the primary's postmaster and of every backend, walsender and worker it started, in one
     * {@code kill}: as a host that dies takes them all at once.
     */
    static void killPrimary() {
        try {
            String pid = Files.readAllLines(Path.of(data("primary"), "postmaster.pid")).get(0).trim();
            Process children = new ProcessBuilder("ps", "-o", "pid=", "--ppid", pid).start();
            List<String> kill = new ArrayList<>(List.of("kill", "-9", pid));
            for (String child : new String(children.getInputStream().readAllBytes()).trim().split("\\s+")) {
                if (!child.isBlank()) {
                    kill.add(child);
                }
            }
            children.waitFor();
            // exits non-zero when a process was gone already (a backend that ended in between): what counts is below
            new ProcessBuilder(kill).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
                    .waitFor();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (alive(pid)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the primary's postmaster " + pid + " survived kill -9");
                }
                Thread.sleep(10);
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot kill the primary", e);
        }
    }

    /** Whether the process runs: not gone, and not a zombie nobody reaped yet (it then runs no more). */
    private static boolean alive(String pid) throws IOException, InterruptedException {
        Process ps = new ProcessBuilder("ps", "-o", "stat=", "-p", pid).start();
        String stat = new String(ps.getInputStream().readAllBytes()).trim();
        ps.waitFor();
        return !stat.isEmpty() && !stat.startsWith("Z");
    }

    /**
     * CPU time the node's processes have used, in clock ticks ({@code /proc/<pid>/stat}: the postmaster's own and its
     * exited children's, and each running child's); 0 when the node does not run.
     */
    static long cpuTicks(String node) {
        try {
            Path pidFile = Path.of(data(node), "postmaster.pid");
            if (!Files.exists(pidFile)) {
                return 0;
            }
            String pid = Files.readAllLines(pidFile).get(0).trim();
            long ticks = ticks(pid, true);
            Process children = new ProcessBuilder("ps", "-o", "pid=", "--ppid", pid).start();
            for (String child : new String(children.getInputStream().readAllBytes()).trim().split("\\s+")) {
                if (!child.isBlank()) {
                    ticks += ticks(child, false);
                }
            }
            children.waitFor();
            return ticks;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot read the CPU time of " + node, e);
        }
    }

    private static long ticks(String pid, boolean withExitedChildren) {
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // after the command: state(0) ... utime(11) stime(12) cutime(13) cstime(14)
            long t = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            return withExitedChildren ? t + Long.parseLong(f[13]) + Long.parseLong(f[14]) : t;
        } catch (IOException | RuntimeException gone) {
            return 0; // a backend that ended in between
        }
    }

    /** {@code pg_ctl promote}: the standby ends recovery and takes writes. */
    static void promoteStandby() {
        TestPostgres.asPostgres(TestPostgres.bin("pg_ctl"), "-D", data("standby"), "-w", "promote");
    }

    /** Stops what still runs and deletes the directory. */
    static void stop() {
        String dir = System.getProperty(DIR);
        if (dir == null) {
            return;
        }
        try {
            for (String node : List.of("primary", "standby")) {
                if (Files.exists(Path.of(data(node), "postmaster.pid"))) {
                    try {
                        TestPostgres.asPostgres(TestPostgres.bin("pg_ctl"), "-D", data(node), "-m", "immediate", "-w",
                                "stop");
                    } catch (IllegalStateException e) {
                        // killed already: its pid file outlived it
                    }
                }
            }
        } finally {
            try (Stream<Path> files = Files.walk(Path.of(dir))) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a leftover temporary directory is harmless
            }
            System.clearProperty(DIR);
            System.clearProperty(PRIMARY_PORT);
            System.clearProperty(STANDBY_PORT);
        }
    }

    private static void startServer(String node, int port) {
        TestPostgres.asPostgres(TestPostgres.bin("pg_ctl"), "-D", data(node), "-l", dir().resolve(node + ".log").toString(),
                "-w", "-o", "-p " + port + " -k " + dir() + " -c listen_addresses=127.0.0.1 -c max_connections=60"
                        + " -c fsync=off",
                "start");
    }

    private static String psql(int port, String sql) {
        try {
            Process p = new ProcessBuilder("runuser", "-u", "postgres", "--", TestPostgres.bin("psql"), "-h",
                    "127.0.0.1", "-p", Integer.toString(port), "-U", "postgres", "-d", "test", "-At", "-c", sql)
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("psql " + sql + " failed: " + out);
            }
            return out;
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("psql " + sql + " failed", e);
        }
    }

    private static int port(String property) {
        return Integer.parseInt(System.getProperty(property));
    }

    private static Path dir() {
        return Path.of(System.getProperty(DIR));
    }

    private static String data(String node) {
        return dir().resolve(node).toString();
    }
}

package dev.mnemos.promotion;

import dev.mnemos.testsupport.FreePorts;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * pg_auto_failover owned by one test, in a temporary directory, each Postgres on a free port: a monitor and two nodes,
 * {@code node1} (the primary) and {@code node2} (its secondary, cloned by pg_autoctl with {@code pg_basebackup}), each a
 * {@code pg_autoctl create … --run} process run as the {@code postgres} OS user (its keeper supervising its Postgres).
 * The monitor's health checks are tuned to declare a lost node in about two seconds instead of its defaults' 20 and more
 * ({@link #MONITOR}). pg_auto_failover's defaults for two nodes are kept otherwise: {@code number_sync_standbys} 0 and
 * {@code replication-quorum} true on both, which make the primary's {@code synchronous_standby_names}
 * {@code ANY 1 (pgautofailover_standby_2)}: synchronous replication, a commit acknowledged once the secondary has it; the
 * promoted node, alone, commits without a standby ({@code wait_primary}). {@link #killPrimary()} is a machine loss:
 * {@code kill -9} of the primary's keeper and of its Postgres, at once (killing only Postgres, the keeper would restart
 * it); the test does not promote anything, the monitor does. Without pg_autoctl {@link #start()} throws: the test fails,
 * it is not skipped. Like {@link TestPostgresPair}, the ports, directory and process ids are system properties: the
 * test class is loaded twice.
 */
public final class TestPgAutoFailover {

    private static final String DIR = "mnemos.test-pgaf.dir";
    private static final String PORT = "mnemos.test-pgaf.port.";
    private static final String PID = "mnemos.test-pgaf.pid.";
    private static final String KILLED = "mnemos.test-pgaf.killed";
    private static final String DIED = "mnemos.test-pgaf.died";
    private static final List<String> NODES = List.of("monitor", "node1", "node2");

    /**
     * The monitor's settings (its defaults in brackets): a check every second with a one-second connect timeout, one
     * retry half a second later, and a node unhealthy once its checks fail and its keeper has not reported for two
     * seconds; then the monitor waits two seconds for the lost primary to demote before the secondary takes writes.
     */
    static final Map<String, String> MONITOR = settings(
            "pgautofailover.health_check_period", "1000", // ms between two checks of a node (5000)
            "pgautofailover.health_check_timeout", "1000", // ms a check waits for its connection (5000)
            "pgautofailover.health_check_max_retries", "1", // (2)
            "pgautofailover.health_check_retry_delay", "500", // ms (2000)
            "pgautofailover.node_considered_unhealthy_timeout", "2000", // ms without a keeper's report (20000)
            "pgautofailover.primary_demote_timeout", "2000"); // ms the secondary waits in stop_replication (30000)

    /**
     * Settings of the nodes' Postgres, in {@code postgresql.auto.conf} before pg_autoctl sees the data directory (the
     * secondary's copy has them too): a small {@code shared_buffers} (pg_autoctl sizes it from the machine's memory,
     * 6 GB each here); {@code fsync} off, as in {@link TestPostgresPair}: a {@code kill -9} loses no page the kernel
     * holds; the standby retries its WAL source every 200 ms, not 5 s (the promotion waited for that sleep: 5 of 7 s);
     * and a checkpoint that is not spread: pg_autoctl 2.0 runs {@code pg_basebackup} without {@code --checkpoint=fast},
     * whose spread checkpoint took 95 s here.
     */
    private static final Map<String, String> NODE = settings("shared_buffers", "'128MB'", "fsync", "off",
            "wal_retrieve_retry_interval", "'200ms'", "checkpoint_completion_target", "0");

    private TestPgAutoFailover() {
    }

    /**
     * Starts the monitor and both nodes and waits for primary and secondary, with a database {@code test}; answers the
     * application's datasource settings: the multi-host URL of {@link TestPostgresPair#url(int, int)}.
     */
    static Map<String, String> start() {
        String autoctl = autoctl();
        long began = System.nanoTime();
        try {
            Path dir = Files.createTempDirectory("mnemos-pgaf-");
            System.setProperty(DIR, dir.toString());
            for (String node : NODES) {
                System.setProperty(PORT + node, Integer.toString(FreePorts.one()));
            }
            TestPostgres.run("chown", "postgres:postgres", dir.toString());
            for (String node : List.of("monitor", "node1")) {
                TestPostgres.asPostgres(bin("initdb"), "-D", data(node), "-U", "postgres", "-A", "trust", "--no-sync",
                        "-E", "UTF8");
                StringBuilder conf = new StringBuilder();
                (node.equals("monitor") ? settings("shared_buffers", "'128MB'", "fsync", "off") : NODE)
                        .forEach((k, v) -> conf.append(k).append(" = ").append(v).append('\n'));
                Files.writeString(Path.of(data(node), "postgresql.auto.conf"), conf, StandardOpenOption.APPEND);
            }
            spawn("monitor", autoctl, "create", "monitor", "--pgdata", data("monitor"), "--pgport", port("monitor"),
                    "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl", "--pgctl", bin("pg_ctl"), "--run");
            await("the monitor to run", () -> query("monitor", "select count(*) from pgautofailover.formation") != null);
            try (Connection c = connect("monitor"); Statement s = c.createStatement()) {
                for (var e : MONITOR.entrySet()) {
                    s.execute("alter system set " + e.getKey() + " = " + e.getValue());
                }
                s.execute("select pg_reload_conf()");
            }
            for (String node : List.of("node1", "node2")) {
                spawn(node, autoctl, "create", "postgres", "--pgdata", data(node), "--pgport", port(node), "--listen",
                        "127.0.0.1", "--hostname", "127.0.0.1", "--name", node, "--dbname", "test", "--auth", "trust",
                        "--no-ssl", "--pgctl", bin("pg_ctl"), "--monitor", monitorUri(), "--run");
                if (node.equals("node1")) {
                    await("node1 to be single", () -> "single".equals(state("node1")));
                }
            }
            await("node1 primary and node2 secondary",
                    () -> "primary".equals(state("node1")) && "secondary".equals(state("node2")));
            await("node2 a synchronous standby of node1", () -> {
                String sync = query("node1", "select string_agg(sync_state, ',') from pg_stat_replication");
                return "quorum".equals(sync) || "sync".equals(sync);
            });
            System.out.printf("TestPgAutoFailover: monitor, node1 (primary) and node2 (secondary) ready in %d ms;"
                    + " number_sync_standbys %s, replication quorum %s, node1's synchronous_standby_names %s (sync_state"
                    + " %s), synchronous_commit %s%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began),
                    query("monitor", "select number_sync_standbys from pgautofailover.formation"),
                    query("monitor", "select string_agg(nodename || '=' || replicationquorum, ',' order by nodeid)"
                            + " from pgautofailover.node"),
                    query("node1", "show synchronous_standby_names"),
                    query("node1", "select string_agg(sync_state, ',') from pg_stat_replication"),
                    query("node1", "show synchronous_commit"));
        } catch (IOException | SQLException | RuntimeException e) {
            String logs = logs();
            stop();
            throw new IllegalStateException("cannot set up pg_auto_failover (monitor, node1, node2): " + e + logs, e);
        }
        return Map.of("quarkus.datasource.jdbc.url",
                TestPostgresPair.url(Integer.parseInt(port("node1")), Integer.parseInt(port("node2"))),
                "quarkus.datasource.jdbc.acquisition-timeout", "1s",
                "quarkus.datasource.jdbc.max-size", "16");
    }

    /**
     * The machine of the primary is lost: {@code kill -9} of its {@code pg_autoctl} (supervisor and keeper), its Postgres
     * and every backend, from the JVM (no process to start), parents first so that none is left to restart a child.
     */
    static long killPrimary() {
        String primary = primary();
        System.setProperty(KILLED, primary);
        try {
            String postmaster = Files.readAllLines(Path.of(data(primary), "postmaster.pid")).get(0).trim();
            Set<String> tree = tree(System.getProperty(PID + primary));
            long died = System.nanoTime();
            for (String pid : tree) {
                ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly); // SIGKILL
            }
            System.setProperty(DIED, Long.toString(died));
            await("the primary's postmaster to die", () -> !alive(postmaster));
            return died;
        } catch (IOException e) {
            throw new IllegalStateException("cannot kill the primary " + primary, e);
        }
    }

    /**
     * Waits (at most 60 s) for the monitor to promote the other node, watching {@code pgautofailover.node} every 50 ms:
     * when it marks the killed node unhealthy, and when the other reports {@code wait_primary} (writable, committing
     * alone) or {@code primary}. Answers both times, counted from the {@code SIGKILL}s.
     */
    static String failOver() {
        String killed = System.getProperty(KILLED);
        String other = killed.equals("node1") ? "node2" : "node1";
        long began = Long.parseLong(System.getProperty(DIED));
        long unhealthy = -1;
        List<String> seen = new ArrayList<>();
        try (Connection c = connect("monitor"); Statement s = c.createStatement()) {
            while (true) {
                Map<String, String[]> nodes = new HashMap<>();
                try (ResultSet r = s.executeQuery("select nodename, reportedstate, goalstate, health from"
                        + " pgautofailover.node")) {
                    while (r.next()) {
                        nodes.put(r.getString(1), new String[] { r.getString(2), r.getString(3), r.getString(4) });
                    }
                }
                long at = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
                String states = killed + " " + String.join("/", nodes.get(killed)) + ", " + other + " "
                        + String.join("/", nodes.get(other));
                if (seen.isEmpty() || !seen.get(seen.size() - 1).endsWith(states)) {
                    seen.add(at + " ms: " + states);
                }
                if (unhealthy < 0 && "0".equals(nodes.get(killed)[2])) {
                    unhealthy = at;
                }
                String reported = nodes.get(other)[0];
                if (reported.equals("wait_primary") || reported.equals("primary")) {
                    System.out.println("TestPgAutoFailover: reported/goal state/health after the kill: " + seen);
                    return String.format("pg_auto_failover's monitor marked %s unhealthy %d ms after the kill and %s"
                            + " reported %s (promoted, writable) %d ms after it", killed, unhealthy, other, reported, at);
                }
                if (at > 60_000) {
                    throw new IllegalStateException("the monitor did not promote " + other + " within 60 s: " + seen);
                }
                Thread.sleep(50);
            }
        } catch (SQLException | InterruptedException e) {
            throw new IllegalStateException("cannot watch the monitor: " + seen, e);
        }
    }

    /**
     * Stops what still runs: each {@code pg_autoctl} is asked to stop ({@code SIGTERM}: it stops its Postgres), what
     * remains after 15 s is killed; then deletes the directory.
     */
    static void stop() {
        String dir = System.getProperty(DIR);
        if (dir == null) {
            return;
        }
        try {
            Set<String> all = new LinkedHashSet<>();
            Set<String> keepers = new LinkedHashSet<>();
            for (String node : NODES) {
                String pid = System.getProperty(PID + node);
                if (pid != null) {
                    Set<String> tree = tree(pid);
                    all.addAll(tree);
                    keepers.addAll(children(pid)); // runuser's child: the pg_autoctl supervisor
                }
            }
            long began = System.nanoTime();
            signal("TERM", keepers);
            long deadline = began + TimeUnit.SECONDS.toNanos(15);
            while (all.stream().anyMatch(TestPgAutoFailover::alive) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            signal("KILL", all);
            System.out.printf("TestPgAutoFailover: stopped in %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
        } catch (IOException | InterruptedException e) {
            // best effort: what remains is reported by the ps check of the build
        } finally {
            try (Stream<Path> files = Files.walk(Path.of(dir))) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a leftover temporary directory is harmless
            }
            System.clearProperty(DIR);
            System.clearProperty(KILLED);
            System.clearProperty(DIED);
            for (String node : NODES) {
                System.clearProperty(PORT + node);
                System.clearProperty(PID + node);
            }
        }
    }

    /** pg_autoctl on the PATH or beside a Postgres' binaries; else the test fails with how to install it. */
    static String autoctl() {
        List<Path> places = new ArrayList<>();
        for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!p.isBlank()) {
                places.add(Path.of(p));
            }
        }
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            versions.map(v -> v.resolve("bin")).forEach(places::add);
        } catch (IOException e) {
            // no Postgres installed: neither is pg_autoctl
        }
        return places.stream().map(p -> p.resolve("pg_autoctl")).filter(Files::isExecutable).findFirst()
                .map(Path::toString).filter(p -> extension() != null)
                .orElseThrow(() -> new IllegalStateException("pg_auto_failover is not installed (no pg_autoctl on the"
                        + " PATH or in /usr/lib/postgresql/*/bin, or no pgautofailover extension in"
                        + " /usr/lib/postgresql/*/lib): PgAutoFailoverTest needs it; install Debian's"
                        + " postgresql-15-auto-failover (apt-get install postgresql-15-auto-failover), as .ci/run does"));
    }

    /** The Postgres version directory whose {@code lib} holds the pgautofailover extension, or null. */
    private static Path extension() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.filter(v -> Files.exists(v.resolve("lib").resolve("pgautofailover.so")))
                    .max(Comparator.naturalOrder()).orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** A tool of the Postgres version the extension is built for. */
    private static String bin(String tool) {
        return extension().resolve("bin").resolve(tool).toString();
    }

    /** The node the monitor has as primary now. */
    private static String primary() {
        String primary = query("monitor", "select string_agg(nodename, ',') from pgautofailover.node where reportedstate"
                + " in ('primary', 'wait_primary', 'single')");
        if (primary == null || primary.contains(",")) {
            throw new IllegalStateException("no single primary: " + primary);
        }
        return primary;
    }

    private static String state(String node) {
        return query("monitor", "select reportedstate || case when reportedstate = goalstate then '' else '>' ||"
                + " goalstate end from pgautofailover.node where nodename = '" + node + "'");
    }

    private static void spawn(String node, String... command) throws IOException {
        Path dir = Path.of(System.getProperty(DIR));
        List<String> all = new ArrayList<>(List.of("runuser", "-u", "postgres", "--", "env",
                "XDG_CONFIG_HOME=" + dir.resolve("config"), "XDG_DATA_HOME=" + dir.resolve("share"),
                "XDG_RUNTIME_DIR=" + dir.resolve("run")));
        all.addAll(List.of(command));
        Process p = new ProcessBuilder(all).redirectErrorStream(true)
                .redirectOutput(dir.resolve(node + ".log").toFile()).start();
        System.setProperty(PID + node, Long.toString(p.pid()));
    }

    private static Connection connect(String node) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", "postgres");
        props.setProperty("connectTimeout", "2");
        props.setProperty("socketTimeout", "10");
        String db = node.equals("monitor") ? "pg_auto_failover" : "test";
        // the driver itself, not DriverManager: the test runs in the application's class loader too
        Connection c = new org.postgresql.Driver().connect("jdbc:postgresql://127.0.0.1:" + port(node) + "/" + db, props);
        if (c == null) {
            throw new SQLException("no connection to " + node);
        }
        return c;
    }

    /** The first column of the first row, or null when the node does not answer (yet). */
    private static String query(String node, String sql) {
        try (Connection c = connect(node); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            return r.next() ? r.getString(1) : null;
        } catch (SQLException e) {
            return null;
        }
    }

    interface Check {
        boolean done() throws Exception;
    }

    private static void await(String what, Check check) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        try {
            while (!check.done()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("waited 120 s for " + what + ": monitor says " + query("monitor",
                            "select string_agg(nodename || ' ' || reportedstate || '/' || goalstate, ', ') from"
                                    + " pgautofailover.node"));
                }
                Thread.sleep(100);
            }
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("waiting for " + what, e);
        }
    }

    /** The process and its descendants (from {@code /proc}: no {@code ps} to start on a loaded machine). */
    private static Set<String> tree(String pid) throws IOException {
        Map<String, List<String>> children = children();
        Set<String> tree = new LinkedHashSet<>();
        tree.add(pid);
        List<String> todo = new ArrayList<>(List.of(pid));
        while (!todo.isEmpty()) {
            for (String child : children.getOrDefault(todo.remove(0), List.of())) {
                if (tree.add(child)) {
                    todo.add(child);
                }
            }
        }
        return tree;
    }

    private static List<String> children(String pid) throws IOException {
        return children().getOrDefault(pid, List.of());
    }

    /** Every process's children, by parent: the fourth field of {@code /proc/<pid>/stat}. */
    private static Map<String, List<String>> children() throws IOException {
        Map<String, List<String>> children = new HashMap<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path proc : (Iterable<Path>) procs::iterator) {
                String pid = proc.getFileName().toString();
                if (!pid.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String stat = Files.readString(proc.resolve("stat"));
                    String parent = stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1];
                    children.computeIfAbsent(parent, p -> new ArrayList<>()).add(pid);
                } catch (IOException | RuntimeException gone) {
                    // ended in between
                }
            }
        }
        return children;
    }

    private static void signal(String signal, Set<String> pids) throws IOException {
        if (pids.isEmpty()) {
            return;
        }
        List<String> kill = new ArrayList<>(List.of("kill", "-" + signal));
        kill.addAll(pids);
        try {
            // exits non-zero when a process was gone already: what counts is checked by the caller
            new ProcessBuilder(kill).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
                    .waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the process runs: not gone, and not a zombie nobody reaped yet ({@code /proc/<pid>/stat}). */
    private static boolean alive(String pid) {
        try {
            String stat = Files.readString(Path.of("/proc", pid, "stat"));
            return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    /** The last lines of each log, for a set-up that failed. */
    private static String logs() {
        StringBuilder out = new StringBuilder();
        String dir = System.getProperty(DIR);
        for (String node : NODES) {
            Path log = dir == null ? null : Path.of(dir, node + ".log");
            if (log != null && Files.exists(log)) {
                try {
                    List<String> lines = Files.readAllLines(log);
                    out.append("\n--- ").append(node).append(".log (last 15 lines) ---\n")
                            .append(String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size())));
                } catch (IOException e) {
                    // no log to show
                }
            }
        }
        return out.toString();
    }

    private static String monitorUri() {
        return "postgres://autoctl_node@127.0.0.1:" + port("monitor") + "/pg_auto_failover?sslmode=prefer";
    }

    private static String port(String node) {
        return System.getProperty(PORT + node);
    }

    private static String data(String node) {
        return Path.of(System.getProperty(DIR)).resolve(node).toString();
    }

    private static Map<String, String> settings(String... pairs) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            settings.put(pairs[i], pairs[i + 1]);
        }
        return settings;
    }
}

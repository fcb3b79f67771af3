package dev.mnemos.session;

import dev.mnemos.testsupport.FreePorts;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * A 3-master Redis Cluster on free loopback ports, owned by one test: started with redis-server and redis-cli, stopped
 * (and its files removed) after the test's application. With replicas, each master has its own, and a test can kill a
 * master ({@code SIGKILL}), wait for its replica to take over, and start the killed node again (it comes back as a
 * replica of the node that took over).
 */
public final class TestRedisCluster {

    private static final int MASTERS = 3;
    /**
     * Where {@link #start()} leaves the started cluster for the test method ({@link #started()}): QuarkusUnitTest runs
     * the test class again in the application's class loader, where its static fields are new, unstarted copies; a
     * system property holding a JDK functional interface crosses the class loaders.
     */
    private static final String STARTED = "mnemos.test.redis-cluster";

    private final int replicas;
    private final Duration nodeTimeout;
    private final int[] ports;
    private final Map<Integer, ProcessHandle> nodes = new LinkedHashMap<>();
    private Path dir;

    /** Three masters, no replica, Redis' default node timeout. */
    public TestRedisCluster() {
        this(0, Duration.ofSeconds(15));
    }

    /**
     * @param replicas replicas of each master
     * @param nodeTimeout {@code cluster-node-timeout}: how long a master may not answer before its replica takes over
     */
    public TestRedisCluster(int replicas, Duration nodeTimeout) {
        this(replicas, nodeTimeout, new int[MASTERS * (1 + replicas)]);
        for (int i = 0; i < ports.length; i++) {
            ports[i] = FreePorts.withClusterBus();
        }
    }

    private TestRedisCluster(int replicas, Duration nodeTimeout, int[] ports) {
        this.replicas = replicas;
        this.nodeTimeout = nodeTimeout;
        this.ports = ports;
    }

    /** Starts the cluster; answers the configuration that points an application at it (every node). */
    public Map<String, String> start() {
        try {
            dir = Files.createTempDirectory("mnemos-cluster");
            for (int port : ports) {
                if (listening(port)) {
                    throw new IllegalStateException("port " + port + " is taken: the test must own its cluster");
                }
                launch(port);
            }
            for (int port : ports) {
                waitFor(() -> listening(port), "node " + port + " listening");
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            for (int port : ports) {
                create.add("127.0.0.1:" + port);
            }
            create.addAll(List.of("--cluster-replicas", Integer.toString(replicas), "--cluster-yes"));
            Process p = new ProcessBuilder(create).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed");
            }
            for (int port : ports) {
                waitFor(() -> clusterOk(port), "cluster_state:ok on " + port);
            }
            for (Node node : nodes()) {
                if (!node.master()) {
                    waitFor(() -> cli(node.port(), "INFO", "replication").contains("master_link_status:up"),
                            "replica " + node.port() + " in sync");
                }
            }
        } catch (IOException | InterruptedException e) {
            stop();
            throw new IllegalStateException("cannot start the test Redis Cluster", e);
        }
        publish();
        return Map.of("quarkus.redis.hosts", Arrays.stream(ports).mapToObj(port -> "redis://127.0.0.1:" + port)
                .collect(Collectors.joining(",")),
                "quarkus.redis.client-type", "cluster");
    }

    /**
     * The cluster this JVM's test started, as the test method drives it: QuarkusUnitTest runs the test class again in
     * the application's class loader, where its static fields are new, unstarted copies. The started cluster leaves
     * its directory, settings and processes in a system property (strings only: other libraries read them all).
     */
    public static TestRedisCluster started() {
        String started = System.getProperty(STARTED);
        if (started == null) {
            throw new IllegalStateException("no test Redis Cluster was started");
        }
        String[] parts = started.split("\\|");
        String[] nodes = parts[3].split(",");
        TestRedisCluster cluster = new TestRedisCluster(Integer.parseInt(parts[1]),
                Duration.ofMillis(Long.parseLong(parts[2])), new int[nodes.length]);
        cluster.dir = Path.of(parts[0]);
        for (int i = 0; i < nodes.length; i++) {
            String[] node = nodes[i].split("=");
            cluster.ports[i] = Integer.parseInt(node[0]);
            int port = cluster.ports[i];
            ProcessHandle.of(Long.parseLong(node[1])).ifPresent(process -> cluster.nodes.put(port, process)); // not if killed
        }
        return cluster;
    }

    /** Leaves the cluster's directory, settings and processes where {@link #started()} finds them. */
    private void publish() {
        System.setProperty(STARTED, dir + "|" + replicas + "|" + nodeTimeout.toMillis() + "|" + nodes.entrySet()
                .stream().map(e -> e.getKey() + "=" + e.getValue().pid()).collect(Collectors.joining(",")));
    }

    private void launch(int port) throws IOException {
        nodes.put(port, new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--cluster-enabled", "yes", "--cluster-config-file", "nodes-" + port + ".conf",
                "--cluster-node-timeout", Long.toString(nodeTimeout.toMillis()),
                // a session lives in one slot: the other masters' sessions need not stop while one range fails over
                "--cluster-require-full-coverage", "no",
                // a replica's first sync starts at once, not after the default 5 s of waiting for more replicas
                "--repl-diskless-sync-delay", "0",
                "--dir", dir.toString(), "--dbfilename", "dump-" + port + ".rdb", "--save", "", "--appendonly", "no")
                .redirectErrorStream(true).redirectOutput(dir.resolve("node-" + port + ".log").toFile()).start()
                .toHandle());
    }

    /** A node as {@code CLUSTER NODES} tells it. @param slots its slot ranges, each {start, end} */
    public record Node(String id, int port, boolean master, boolean failed, String masterId, List<int[]> slots) {

        public boolean holds(int slot) {
            return slots.stream().anyMatch(range -> range[0] <= slot && slot <= range[1]);
        }
    }

    /** The nodes as a running node sees them now. */
    public List<Node> nodes() {
        for (int port : nodes.keySet()) {
            if (alive(port)) {
                String out = cli(port, "CLUSTER", "NODES");
                if (!out.isBlank()) {
                    return parse(out);
                }
            }
        }
        throw new IllegalStateException("no node of the test cluster answers");
    }

    private static List<Node> parse(String clusterNodes) {
        List<Node> parsed = new ArrayList<>();
        for (String line : clusterNodes.split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length < 8) {
                continue;
            }
            int port = Integer.parseInt(f[1].substring(f[1].lastIndexOf(':') + 1, f[1].indexOf('@')));
            List<int[]> slots = new ArrayList<>();
            for (int i = 8; i < f.length; i++) {
                if (f[i].startsWith("[")) {
                    continue; // a slot being migrated
                }
                String[] range = f[i].split("-");
                slots.add(new int[] { Integer.parseInt(range[0]), Integer.parseInt(range[range.length - 1]) });
            }
            parsed.add(new Node(f[0], port, f[2].contains("master"), f[2].contains("fail") && !f[2].contains("fail?"),
                    f[3], slots));
        }
        return parsed;
    }

    /** The port of the master serving {@code slot} now. */
    public int masterOf(int slot) {
        return nodes().stream().filter(n -> n.master() && !n.failed() && n.holds(slot)).mapToInt(Node::port).findFirst()
                .orElseThrow(() -> new IllegalStateException("no master serves slot " + slot));
    }

    /** Kills the node with {@code SIGKILL} ({@code kill -9}): no shutdown, nothing flushed, connections cut. */
    public void kill(int port) {
        ProcessHandle node = nodes.get(port);
        node.destroyForcibly();
        node.onExit().orTimeout(10, TimeUnit.SECONDS).join();
    }

    /** Waits until a master other than the killed {@code port} serves every slot {@code port} served. */
    public void awaitTakenOver(int port, int slot) {
        try {
            waitFor(() -> {
                try {
                    int master = masterOf(slot);
                    return master != port && clusterOk(master);
                } catch (IllegalStateException notYet) {
                    return false;
                }
            }, "a replica to take over slot " + slot + " from " + port);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the killed node again, as an orchestrator would; it rejoins as a replica and syncs. */
    public void restart(int port) {
        try {
            launch(port);
            publish();
            waitFor(() -> listening(port), "node " + port + " listening again");
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot restart node " + port, e);
        }
    }

    /** Waits until the node on {@code port} is a replica whose link to its master is up. */
    public void awaitReplicaInSync(int port) {
        try {
            waitFor(() -> alive(port) && cli(port, "INFO", "replication").contains("master_link_status:up"),
                    "node " + port + " replicating");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public void stop() {
        if (System.getProperty(STARTED) != null) {
            nodes.putAll(started().nodes); // with the nodes the test restarted
            System.clearProperty(STARTED);
        }
        nodes.values().forEach(ProcessHandle::destroy);
        for (ProcessHandle node : nodes.values()) {
            try {
                node.onExit().get(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                node.destroyForcibly();
            }
        }
        nodes.clear();
        if (dir != null) {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
                Files.deleteIfExists(dir);
            } catch (IOException ignored) {
                // a leftover temp directory is harmless
            }
        }
    }

    private boolean alive(int port) {
        ProcessHandle node = nodes.get(port);
        return node != null && node.isAlive();
    }

    private static boolean clusterOk(int port) {
        return cli(port, "CLUSTER", "INFO").contains("cluster_state:ok");
    }

    private static String cli(int port, String... args) {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor(10, TimeUnit.SECONDS);
            return out;
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static boolean listening(int port) {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private interface Check {
        boolean ok();
    }

    private static void waitFor(Check check, String what) throws InterruptedException {
        for (int i = 0; i < 400; i++) {
            if (check.ok()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("timed out waiting for " + what);
    }
}

package dev.mnemos.topology;

import dev.mnemos.testsupport.FreePorts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A master, its replicas (one, or more) and one {@code redis-sentinel} watching them: the application asks the
 * Sentinel where the master is, as an application of a Sentinel-managed Redis does.
 */
final class SentinelRedis {

    static final String MASTER_NAME = "mnemos-master";

    /** How long the master may not answer before the Sentinel fails it over. */
    private final Duration downAfter;
    private final int replicaCount;

    private Path dir;
    private RedisProcess master;
    private final List<RedisProcess> replicas = new ArrayList<>();
    private RedisProcess sentinel;

    SentinelRedis() {
        this(Duration.ofSeconds(5));
    }

    /** @param downAfter the Sentinel's {@code down-after-milliseconds}: how long a master may not answer */
    SentinelRedis(Duration downAfter) {
        this(downAfter, 1);
    }

    /** @param replicaCount how many replicas the master has */
    SentinelRedis(Duration downAfter, int replicaCount) {
        this.downAfter = downAfter;
        this.replicaCount = replicaCount;
    }

    /**
     * Where {@link #start()} leaves the master's process id and port and the Sentinel's port for the test
     * method ({@link #killStarted()}, {@link #awaitStartedFailover()}): QuarkusUnitTest runs the test class again in
     * the application's class loader, where its static fields are new, unstarted copies.
     */
    private static final String STARTED = "mnemos.test.sentinel";

    /** Kills the master of the set-up this JVM's test started with {@code SIGKILL} ({@code kill -9}). */
    static void killStarted() {
        ProcessHandle master = ProcessHandle.of(Long.parseLong(started()[0])).orElseThrow();
        master.destroyForcibly();
        master.onExit().orTimeout(10, TimeUnit.SECONDS).join();
    }

    /** Waits until the Sentinel of the set-up this JVM's test started names a replica as the master, which says so. */
    static void awaitStartedFailover() {
        String[] started = started();
        int sentinel = Integer.parseInt(started[2]);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!promoted(sentinel, started[1])) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the Sentinel did not promote the replica in 20 s");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Whether the Sentinel names another master than the one on {@code killedPort}, and that one is a master. */
    private static boolean promoted(int sentinel, String killedPort) {
        String[] address = RedisProcess.cli(sentinel, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME).strip()
                .split("\\s+");
        String port = address[address.length - 1];
        return !port.equals(killedPort) && port.matches("\\d+")
                && RedisProcess.cli(Integer.parseInt(port), "ROLE").startsWith("master");
    }

    private static String[] started() {
        String started = System.getProperty(STARTED);
        if (started == null) {
            throw new IllegalStateException("no test Sentinel set-up was started");
        }
        return started.split(",");
    }

    /** Starts the three processes; answers the configuration that points an application at the Sentinel. */
    Map<String, String> start() {
        try {
            dir = TestDirectory.create("mnemos-sentinel");
            int masterPort = FreePorts.one();
            master = server("master", masterPort);
            List<Integer> replicaPorts = new ArrayList<>();
            for (int i = 1; i <= replicaCount; i++) {
                int replicaPort = FreePorts.one();
                replicaPorts.add(replicaPort);
                replicas.add(server("replica" + i, replicaPort, "--replicaof", "127.0.0.1", Integer.toString(masterPort)));
            }
            master.await(() -> master.cli("INFO", "replication").contains("connected_slaves:" + replicaCount),
                    "serving its replicas");
            int sentinelPort = FreePorts.one();
            sentinel = RedisProcess.start("sentinel", dir, sentinelPort, List.of("redis-sentinel",
                    sentinelConf(sentinelPort, masterPort).toString()));
            sentinel.await(() -> replicaPorts.stream()
                    .allMatch(port -> sentinel.cli("SENTINEL", "REPLICAS", MASTER_NAME).contains(Integer.toString(port))),
                    "seeing the replicas");
            System.setProperty(STARTED, master.pid() + "," + masterPort + "," + sentinelPort);
            return Map.of("quarkus.redis.client-type", "sentinel",
                    "quarkus.redis.hosts", "redis://127.0.0.1:" + sentinelPort,
                    "quarkus.redis.master-name", MASTER_NAME,
                    "quarkus.redis.role", "master");
        } catch (RuntimeException e) {
            stop(); // a failed start leaves nothing behind, whether or not the after-all stop runs
            throw e;
        }
    }

    void stop() {
        System.clearProperty(STARTED);
        List<RedisProcess> processes = new ArrayList<>();
        processes.add(sentinel);
        processes.addAll(replicas);
        processes.add(master);
        for (RedisProcess process : processes) {
            if (process != null) {
                process.stop();
            }
        }
        replicas.clear();
        TestDirectory.delete(dir);
    }

    private RedisProcess server(String name, int port, String... more) {
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--dir", dir.toString(), "--dbfilename", name + ".rdb", "--save", "",
                "--appendonly", "no", "--repl-diskless-sync-delay", "0"));
        command.addAll(List.of(more));
        return RedisProcess.start(name, dir, port, command);
    }

    /** The Sentinel's configuration file: it rewrites it as it learns the set-up, so it is a file of its own. */
    private Path sentinelConf(int port, int masterPort) {
        Path conf = dir.resolve("sentinel.conf");
        try {
            Files.writeString(conf, String.join("\n",
                    "port " + port,
                    "bind 127.0.0.1",
                    "dir " + dir,
                    "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + masterPort + " 1",
                    "sentinel down-after-milliseconds " + MASTER_NAME + " " + downAfter.toMillis(),
                    "sentinel failover-timeout " + MASTER_NAME + " " + Math.max(downAfter.toMillis() * 3, 3000),
                    ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return conf;
    }
}

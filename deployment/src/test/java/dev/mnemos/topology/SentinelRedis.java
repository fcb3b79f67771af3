package dev.mnemos.topology;

import dev.mnemos.testsupport.FreePorts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A master, its replica and one {@code redis-sentinel} watching them: the application asks the Sentinel where the
 * master is, as an application of a Sentinel-managed Redis does.
 */
final class SentinelRedis {

    static final String MASTER_NAME = "mnemos-master";

    private Path dir;
    private RedisProcess master;
    private RedisProcess replica;
    private RedisProcess sentinel;

    /** Starts the three processes; answers the configuration that points an application at the Sentinel. */
    Map<String, String> start() {
        try {
            dir = TestDirectory.create("mnemos-sentinel");
            int masterPort = FreePorts.one();
            master = server("master", masterPort);
            int replicaPort = FreePorts.one();
            replica = server("replica", replicaPort, "--replicaof", "127.0.0.1", Integer.toString(masterPort));
            master.await(() -> master.cli("INFO", "replication").contains("connected_slaves:1"), "serving its replica");
            int sentinelPort = FreePorts.one();
            sentinel = RedisProcess.start("sentinel", dir, sentinelPort, List.of("redis-sentinel",
                    sentinelConf(sentinelPort, masterPort).toString()));
            sentinel.await(() -> sentinel.cli("SENTINEL", "REPLICAS", MASTER_NAME).contains(Integer.toString(replicaPort)),
                    "seeing the replica");
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
        for (RedisProcess process : new RedisProcess[] { sentinel, replica, master }) {
            if (process != null) {
                process.stop();
            }
        }
        TestDirectory.delete(dir);
    }

    private RedisProcess server(String name, int port, String... more) {
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--dir", dir.toString(), "--dbfilename", name + ".rdb", "--save", "",
                "--appendonly", "no"));
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
                    "sentinel down-after-milliseconds " + MASTER_NAME + " 5000",
                    ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return conf;
    }
}

package dev.mnemos.topology;

import dev.mnemos.testsupport.FreePorts;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** One plain {@code redis-server} of the test's own on a free loopback port, without persistence. */
final class StandaloneRedis {

    private Path dir;
    private RedisProcess server;

    /** Starts the server; answers the configuration that points an application at it. */
    Map<String, String> start() {
        try {
            dir = TestDirectory.create("mnemos-standalone");
            int port = FreePorts.one();
            server = RedisProcess.start("redis", dir, port, List.of("redis-server", "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--dir", dir.toString(), "--save", "", "--appendonly", "no"));
            return Map.of("quarkus.redis.hosts", "redis://127.0.0.1:" + port);
        } catch (RuntimeException e) {
            stop(); // a failed start leaves nothing behind, whether or not the after-all stop runs
            throw e;
        }
    }

    void stop() {
        if (server != null) {
            server.stop();
        }
        TestDirectory.delete(dir);
    }
}

package dev.mnemos.server.support;

import dev.mnemos.testsupport.FreePorts;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.Map;

/**
 * An {@link OwnedRedis} for one test's Quarkus instance (on a free port, append-only file fsynced on
 * every write), which the test can kill and start again on the same data. It is stopped when the
 * test's Quarkus instance shuts down.
 */
public class TestRedis implements QuarkusTestResourceLifecycleManager {

    private static OwnedRedis redis;

    @Override
    public Map<String, String> start() {
        redis = new OwnedRedis(FreePorts.one()).start();
        return Map.of("quarkus.redis.hosts", redis.url());
    }

    @Override
    public void stop() {
        if (redis != null) {
            redis.close();
            redis = null;
        }
    }

    /** SIGKILL: only what the append-only file holds survives. */
    public static synchronized void killServer() {
        redis.kill();
    }

    /** Starts it again on the same data directory. */
    public static synchronized void startServer() {
        redis.start();
    }
}

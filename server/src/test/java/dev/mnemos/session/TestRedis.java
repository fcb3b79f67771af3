package dev.mnemos.session;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.net.Socket;
import java.util.Map;

/**
 * A redis-server owned by one test, on its own port, that the test can stop and start again.
 * It is stopped when the test's Quarkus instance shuts down.
 */
public class TestRedis implements QuarkusTestResourceLifecycleManager {

    static final int PORT = 6391;
    private static Process process;

    @Override
    public Map<String, String> start() {
        startServer();
        return Map.of("quarkus.redis.hosts", "redis://127.0.0.1:" + PORT);
    }

    @Override
    public void stop() {
        stopServer();
    }

    public static synchronized void startServer() {
        if (listening()) {
            throw new IllegalStateException("port " + PORT + " is already taken: the test must own its redis-server");
        }
        try {
            process = new ProcessBuilder("redis-server", "--port", Integer.toString(PORT), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            for (int i = 0; i < 100 && !listening(); i++) {
                Thread.sleep(50);
            }
            if (!listening()) {
                throw new IllegalStateException("the test redis-server did not start listening on port " + PORT);
            }
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException("cannot start the test redis-server", e);
        }
    }

    public static synchronized void stopServer() {
        if (process != null) {
            process.destroy();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    private static boolean listening() {
        try (Socket ignored = new Socket("127.0.0.1", PORT)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

package dev.mnemos.promotion;

import dev.mnemos.testsupport.FreePorts;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A plain {@code redis-server} of one test's own on a free loopback port, without persistence: for tests whose end sweep
 * must not meet the sessions of other tests in the machine's shared Redis.
 */
public final class TestRedisServer {

    private Process process;

    /** Starts the server; answers the configuration that points an application at it. */
    public Map<String, String> start() {
        int port = FreePorts.one();
        try {
            process = new ProcessBuilder(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no")).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!listening(port)) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("redis-server did not listen on port " + port);
                }
                Thread.sleep(50);
            }
        } catch (IOException | InterruptedException e) {
            stop();
            throw new IllegalStateException("cannot start the test's redis-server", e);
        }
        return Map.of("quarkus.redis.hosts", "redis://127.0.0.1:" + port);
    }

    public void stop() {
        if (process != null) {
            process.destroyForcibly();
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

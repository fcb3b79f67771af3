package dev.mnemos.deployment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server of a test's own, configured as production should be (append-only file fsynced
 * every second, no eviction), on a free loopback port. The machine's shared Redis runs without
 * persistence and must not be reconfigured by one test.
 */
final class DurableRedis {

    private final int port = freePort();
    private Process process;
    private Path dir;

    String url() {
        return "redis://127.0.0.1:" + port;
    }

    void start() {
        try {
            dir = Files.createTempDirectory("mnemos-durable-redis");
            process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "yes", "--appendfsync", "everysec",
                    "--maxmemory-policy", "noeviction", "--dir", dir.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        awaitPing();
    }

    void stop() {
        if (process != null) {
            process.destroy();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void awaitPing() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                Process ping = new ProcessBuilder("redis-cli", "-p", Integer.toString(port), "ping")
                        .redirectErrorStream(true).start();
                if (ping.waitFor(5, TimeUnit.SECONDS)
                        && new String(ping.getInputStream().readAllBytes()).trim().equals("PONG")) {
                    return;
                }
                throw new IllegalStateException("no PONG yet");
            } catch (IOException | InterruptedException | RuntimeException notYet) {
                if (System.nanoTime() > deadline || !process.isAlive()) {
                    throw new IllegalStateException("redis-server on port " + port + " did not start (log in " + dir + ")",
                            notYet);
                }
                sleep();
            }
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.mnemos.server.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A redis-server process a test owns: its own port, its own data directory, persistence with an
 * append-only file fsynced on every write. The test can pause it (SIGSTOP), resume it, kill it with
 * SIGKILL and start it again on the same data. {@link #close()} stops it and removes its directory.
 */
public final class OwnedRedis implements AutoCloseable {

    private final int port;
    private final Path dir;
    private Process process;

    public OwnedRedis(int port) {
        this.port = port;
        try {
            this.dir = Files.createTempDirectory("mnemos-redis-" + port + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public synchronized OwnedRedis start() {
        if (listening()) {
            throw new IllegalStateException("port " + port + " is already taken: the test must own its redis-server");
        }
        try {
            process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--dir", dir.toString(),
                    "--daemonize", "no").redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
            for (int i = 0; i < 200 && !ready(); i++) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the test redis-server on port " + port + " exited; see " + dir);
                }
                Thread.sleep(25);
            }
            if (!ready()) {
                throw new IllegalStateException("the test redis-server did not answer PING on port " + port);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return this;
    }

    /** SIGSTOP: the process keeps its sockets but answers nothing until {@link #resume()}. */
    public void pause() {
        signal("-STOP");
    }

    public void resume() {
        signal("-CONT");
    }

    /** SIGKILL: no shutdown, no last fsync; only what the append-only file holds survives. */
    public synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
            waitFor();
        }
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void waitFor() {
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    @Override
    public synchronized void close() {
        if (process != null) {
            if (process.isAlive()) {
                resume();
            }
            process.destroyForcibly();
            waitFor();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temporary directory is harmless
        }
    }

    /** Answers PING (not LOADING: a restart has read its append-only file). */
    private boolean ready() {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(1000);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] reply = new byte[7];
            int read = socket.getInputStream().read(reply);
            return read >= 5 && new String(reply, 0, 5, StandardCharsets.US_ASCII).equals("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    private boolean listening() {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

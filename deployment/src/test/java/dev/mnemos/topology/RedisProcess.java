package dev.mnemos.topology;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One {@code redis-server} or {@code redis-sentinel} process of a test's own, with its log in the test's directory.
 * A missing binary fails the test rather than skipping it: CI installs every binary these tests need ({@code .ci/run}),
 * so a topology that is not tested is a broken build, not a quiet one.
 */
final class RedisProcess {

    private static final long WAIT_MILLIS = 20_000;

    private final String name;
    private final int port;
    private final Process process;
    private final Path log;

    private RedisProcess(String name, int port, Process process, Path log) {
        this.name = name;
        this.port = port;
        this.process = process;
        this.log = log;
    }

    /**
     * Runs {@code command} (a binary and its arguments) in {@code dir} and waits until it listens on {@code port}.
     *
     * @param name names the process in failures and its log file ({@code <name>.log} in {@code dir})
     */
    static RedisProcess start(String name, Path dir, int port, List<String> command) {
        requireBinary(command.get(0));
        if (listening(port)) {
            throw new IllegalStateException("port " + port + " is taken: the test must own its " + name);
        }
        Path log = dir.resolve(name + ".log");
        Process process;
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command, e);
        }
        RedisProcess started = new RedisProcess(name, port, process, log);
        started.await(() -> listening(port), "listening on port " + port);
        return started;
    }

    /**
     * Fails unless {@code binary} is on the PATH, naming the Debian package that has it.
     */
    static void requireBinary(String binary) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, binary))) {
                return;
            }
        }
        String debianPackage = binary.equals("redis-cli") ? "redis-tools" : binary;
        throw new IllegalStateException(binary + " is not on the PATH: install Debian's " + debianPackage
                + " package (.ci/run installs it when missing) to run the Redis topology tests");
    }

    int port() {
        return port;
    }

    /** Waits until {@code check} holds, failing with the process' log when it does not in time or the process died. */
    void await(BooleanSupplier check, String what) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (!check.getAsBoolean()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " is not " + what + (process.isAlive() ? "" : " (it exited)")
                        + "; its log:\n" + logTail());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for " + name, e);
            }
        }
    }

    /** Runs {@code redis-cli} against this process with {@code args}; its output, or "" when it fails. */
    String cli(String... args) {
        return cli(port, args);
    }

    /** Runs {@code redis-cli} against the process on {@code port} with {@code args}; its output, or "" when it fails. */
    static String cli(int port, String... args) {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        try {
            Process cli = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(cli.getInputStream().readAllBytes());
            return cli.waitFor(10, TimeUnit.SECONDS) && cli.exitValue() == 0 ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    long pid() {
        return process.pid();
    }

    void stop() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}

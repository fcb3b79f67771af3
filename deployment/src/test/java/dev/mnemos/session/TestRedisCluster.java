package dev.mnemos.session;

import dev.mnemos.testsupport.FreePorts;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A 3-master Redis Cluster on three free loopback ports, owned by one test: started with
 * redis-server and redis-cli, stopped (and its files removed) after the test's application.
 */
public final class TestRedisCluster {

    private final int[] ports = { FreePorts.withClusterBus(), FreePorts.withClusterBus(), FreePorts.withClusterBus() };

    private final List<Process> nodes = new ArrayList<>();
    private Path dir;

    /** Starts the cluster; answers the configuration that points an application at it. */
    public Map<String, String> start() {
        try {
            dir = Files.createTempDirectory("mnemos-cluster");
            for (int port : ports) {
                if (listening(port)) {
                    throw new IllegalStateException("port " + port + " is taken: the test must own its cluster");
                }
                nodes.add(new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                        "--cluster-enabled", "yes", "--cluster-config-file", "nodes-" + port + ".conf",
                        "--dir", dir.toString(), "--save", "", "--appendonly", "no")
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
            }
            for (int port : ports) {
                waitFor(() -> listening(port), "node " + port + " listening");
            }
            List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            for (int port : ports) {
                create.add("127.0.0.1:" + port);
            }
            create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
            Process p = new ProcessBuilder(create).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("redis-cli --cluster create failed");
            }
            for (int port : ports) {
                waitFor(() -> clusterOk(port), "cluster_state:ok on " + port);
            }
        } catch (IOException | InterruptedException e) {
            stop();
            throw new IllegalStateException("cannot start the test Redis Cluster", e);
        }
        return Map.of("quarkus.redis.hosts", Arrays.stream(ports).mapToObj(port -> "redis://127.0.0.1:" + port)
                .collect(Collectors.joining(",")),
                "quarkus.redis.client-type", "cluster");
    }

    public void stop() {
        nodes.forEach(Process::destroy);
        for (Process node : nodes) {
            try {
                node.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
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

    private static boolean clusterOk(int port) {
        try {
            Process p = new ProcessBuilder("redis-cli", "-p", Integer.toString(port), "cluster", "info").start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor(10, TimeUnit.SECONDS);
            return out.contains("cluster_state:ok");
        } catch (IOException | InterruptedException e) {
            return false;
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
        for (int i = 0; i < 200; i++) {
            if (check.ok()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("timed out waiting for " + what);
    }
}

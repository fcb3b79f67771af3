package dev.mnemos.topology;

import dev.mnemos.testsupport.FreePorts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} that takes only TLS connections, with a certificate authority and a server certificate that
 * {@code openssl} generates for the test: the application trusts that authority through a named Quarkus TLS
 * configuration, as an operator trusts a private one.
 */
final class TlsRedis {

    /** The name of the Quarkus TLS configuration the application uses for Redis. */
    static final String TLS_CONFIGURATION = "redis";

    private Path dir;
    private RedisProcess server;

    /** Generates the certificates and starts the server; answers the configuration that points an application at it. */
    Map<String, String> start() {
        try {
            dir = TestDirectory.create("mnemos-tls");
            certificates();
            int port = FreePorts.one();
            server = RedisProcess.start("redis-tls", dir, port, List.of("redis-server", "--port", "0",
                    "--tls-port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--tls-cert-file", dir.resolve("server.pem").toString(),
                    "--tls-key-file", dir.resolve("server.key").toString(),
                    "--tls-ca-cert-file", dir.resolve("ca.pem").toString(), "--tls-auth-clients", "no",
                    "--dir", dir.toString(), "--save", "", "--appendonly", "no"));
            return Map.of("quarkus.redis.hosts", "rediss://127.0.0.1:" + port,
                    "quarkus.redis.tls-configuration-name", TLS_CONFIGURATION,
                    "quarkus.tls." + TLS_CONFIGURATION + ".trust-store.pem.certs", dir.resolve("ca.pem").toString(),
                    // the Redis client refuses TLS without one; the server certificate names 127.0.0.1
                    "quarkus.tls." + TLS_CONFIGURATION + ".hostname-verification-algorithm", "HTTPS");
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

    /** A self-signed CA ({@code ca.pem}) and a server certificate it signed for 127.0.0.1 ({@code server.pem}). */
    private void certificates() {
        try {
            Files.writeString(dir.resolve("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Mnemos test CA",
                "-keyout", "ca.key", "-out", "ca.pem");
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key",
                "-out", "server.csr");
        openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "2", "-extfile", "server.ext", "-out", "server.pem");
    }

    private void openssl(String... args) {
        RedisProcess.requireBinary("openssl");
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("openssl " + String.join(" ", args) + " failed:\n" + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run openssl", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

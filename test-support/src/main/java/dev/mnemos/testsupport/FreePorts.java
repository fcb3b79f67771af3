package dev.mnemos.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Loopback ports a test's own server process can take. A fixed port collides when two builds run on
 * one machine; the kernel's pick of a free port does not.
 */
public final class FreePorts {

    private FreePorts() {
    }

    /** A port nothing listens on now. */
    public static int one() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    /**
     * A free port whose Redis Cluster bus port (the port plus 10000) is free too.
     */
    public static int withClusterBus() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = one();
            if (port + 10000 <= 65535 && free(port + 10000)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port with a free cluster bus port");
    }

    private static boolean free(int port) {
        try (ServerSocket ignored = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

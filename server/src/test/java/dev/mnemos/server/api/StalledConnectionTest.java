package dev.mnemos.server.api;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URL;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** A client that stalls in the middle of its request head is disconnected by the server (quarkus.http.idle-timeout). */
@QuarkusTest
@TestProfile(ShortIdleTimeout.class)
class StalledConnectionTest {

    @TestHTTPResource("/")
    URL root;

    @Test
    void partialHeadersAreClosedByTheServer() throws Exception {
        try (Socket socket = new Socket(root.getHost(), root.getPort())) {
            socket.getOutputStream().write("GET /v1/sessions HTTP/1.1\r\nHost: localhost\r\nX-Slow: "
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            socket.setSoTimeout(60_000); // a safety net only: the event awaited is the server's close
            InputStream in = socket.getInputStream();
            try {
                int read;
                while ((read = in.read()) != -1) {
                    assertThat(read).as("no response to an unfinished request head").isLessThan(0);
                }
            } catch (SocketTimeoutException e) {
                fail("the server kept a stalled connection open for 60 s");
            } catch (SocketException reset) {
                // closed by the server with a reset: closed all the same
            }
        }
    }
}

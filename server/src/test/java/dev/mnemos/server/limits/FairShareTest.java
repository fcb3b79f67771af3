package dev.mnemos.server.limits;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 51 item 7: one caller must not starve the rest. An MCP batch is capped (size, no repeated request) and takes one
 * request of the user's share per message; a user over their share answers 429 with Retry-After while another user is
 * served. The figures (batch answer size, the other user's p50/p99 alone and beside a flood) are printed, not asserted:
 * timings on a shared 2-core machine are no test.
 */
@QuarkusTest
@TestProfile(FairShareTest.Limited.class)
class FairShareTest {

    /** A small share, so that a test reaches it in a few requests. */
    public static class Limited implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("mnemos.limits.requests-per-second", "5", "mnemos.limits.burst", "20",
                    "mnemos.limits.max-concurrent", "4");
        }
    }

    static final String[] LISTS = { "tools/list", "prompts/list", "resources/list", "resources/templates/list" };

    @TestHTTPResource("/")
    URI root;

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private HttpResponse<String> post(String path, String token, String session, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(root.resolve(path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String mcpSession(String token) throws Exception {
        JsonObject init = new JsonObject().put("jsonrpc", "2.0").put("id", 0).put("method", "initialize").put("params",
                new JsonObject().put("protocolVersion", "2025-03-26").put("capabilities", new JsonObject())
                        .put("clientInfo", new JsonObject().put("name", "fair").put("version", "1")));
        HttpResponse<String> opened = post("mcp", token, null, init.encode());
        assertThat(opened.statusCode()).isEqualTo(200);
        String session = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
        post("mcp", token, session, new JsonObject().put("jsonrpc", "2.0").put("method", "notifications/initialized").encode());
        return session;
    }

    private static String batch(int size, boolean distinct) {
        JsonArray batch = new JsonArray();
        for (int i = 0; i < size; i++) {
            batch.add(new JsonObject().put("jsonrpc", "2.0").put("id", i + 1)
                    .put("method", distinct ? LISTS[i % LISTS.length] : "tools/list"));
        }
        return batch.encode();
    }

    /** A batch of {@code size} pings, made distinct by their {@code _meta}. */
    private static String pings(int size) {
        JsonArray batch = new JsonArray();
        for (int i = 0; i < size; i++) {
            batch.add(new JsonObject().put("jsonrpc", "2.0").put("id", i + 1).put("method", "ping")
                    .put("params", new JsonObject().put("_meta", new JsonObject().put("n", i))));
        }
        return batch.encode();
    }

    @Test
    void anMcpBatchIsCappedAndTakesOneRequestPerMessage() throws Exception {
        String token = Tokens.user("fair-batch-" + UUID.randomUUID());
        String session = mcpSession(token);

        String flood = batch(1000, false);
        HttpResponse<String> big = post("mcp", token, session, flood);
        System.out.printf("FairShareTest: a batch of 1000 tools/list (%d bytes) answered %d with %d bytes%n",
                flood.length(), big.statusCode(), big.body().length());
        assertThat(big.statusCode()).isEqualTo(400);
        assertThat(big.body()).contains("-32600").contains("at most 10");

        HttpResponse<String> repeated = post("mcp", token, session, batch(10, false));
        assertThat(repeated.statusCode()).isEqualTo(400);
        assertThat(repeated.body()).contains("repeats a request");

        String distinct = batch(LISTS.length, true);
        HttpResponse<String> answered = post("mcp", token, session, distinct);
        assertThat(answered.statusCode()).isEqualTo(200);
        System.out.printf("FairShareTest: a batch of %d distinct list requests (%d bytes) answered %d bytes (%.0fx)%n",
                LISTS.length, distinct.length(), answered.body().length(),
                answered.body().length() / (double) distinct.length());
        for (String list : LISTS) {
            assertThat(answered.body()).contains("\"id\":" + (List.of(LISTS).indexOf(list) + 1));
        }

        // each message takes one request of the user's share (burst 20, 5 a second): batches of 10 reach it at once
        String tens = pings(10);
        HttpResponse<String> last = post("mcp", token, session, tens);
        int batches = 1;
        while (last.statusCode() == 200 && batches < 20) {
            last = post("mcp", token, session, tens);
            batches++;
        }
        System.out.printf("FairShareTest: batch %d of 10 pings answered %d%n", batches, last.statusCode());
        assertThat(last.statusCode()).isEqualTo(429);
        assertThat(batches).isLessThan(20);
        assertThat(last.headers().firstValue("Retry-After"))
                .hasValueSatisfying(s -> assertThat(Long.parseLong(s)).isPositive());
        assertThat(last.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    private String session(String token) throws Exception {
        HttpResponse<String> created = post("v1/sessions", token, null, "{\"goal\":\"measure steps\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        return new JsonObject(created.body()).getString("sessionId");
    }

    private HttpResponse<String> step(String token, String id, int n) throws Exception {
        return post("v1/sessions/" + id + "/steps", token, null,
                "{\"patch\":{\"putCollected\":{\"n\":\"" + n + "\"}}}");
    }

    /** p50 and p99 in ms of {@code count} sequential steps, paced at 4 per second at most (under the share of 5). */
    private double[] steps(String token, String id, int count) throws Exception {
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long start = System.nanoTime();
            HttpResponse<String> r = step(token, id, i);
            ms.add((System.nanoTime() - start) / 1e6);
            assertThat(r.statusCode()).as("the quiet user's step %d: %s", i, r.body()).isEqualTo(200);
            Thread.sleep(250);
        }
        Collections.sort(ms);
        return new double[] { ms.get(ms.size() / 2), ms.get((int) Math.ceil(ms.size() * 0.99) - 1) };
    }

    @Test
    void aFloodingUserGets429WithRetryAfterWhileAnotherIsServed() throws Exception {
        String quiet = Tokens.user("fair-quiet-" + UUID.randomUUID());
        String loud = Tokens.user("fair-loud-" + UUID.randomUUID());
        String quietSession = session(quiet);
        String loudSession = session(loud);
        double[] alone = steps(quiet, quietSession, 20);

        AtomicBoolean stop = new AtomicBoolean();
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        List<String> retryAfter = Collections.synchronizedList(new ArrayList<>());
        List<String> problemTypes = Collections.synchronizedList(new ArrayList<>());
        ExecutorService flood = Executors.newFixedThreadPool(4);
        for (int t = 0; t < 4; t++) {
            flood.submit(() -> {
                int n = 0;
                while (!stop.get()) {
                    HttpResponse<String> r = step(loud, loudSession, n++);
                    statuses.computeIfAbsent(r.statusCode(), s -> new AtomicInteger()).incrementAndGet();
                    if (r.statusCode() == 429) {
                        r.headers().firstValue("Retry-After").ifPresent(retryAfter::add);
                        r.headers().firstValue("Content-Type").ifPresent(problemTypes::add);
                    }
                }
                return null;
            });
        }
        double[] beside;
        try {
            Thread.sleep(300);
            beside = steps(quiet, quietSession, 20);
        } finally {
            stop.set(true);
            flood.shutdown();
            assertThat(flood.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        System.out.printf("FairShareTest: the quiet user's step p50/p99 alone %.1f/%.1f ms, beside a flood %.1f/%.1f ms "
                + "(p99 x%.1f); the flooding user's answers %s%n", alone[0], alone[1], beside[0], beside[1],
                beside[1] / alone[1], statuses);
        assertThat(statuses).containsKey(429);
        assertThat(statuses.keySet()).allMatch(s -> s == 200 || s == 429);
        assertThat(retryAfter).hasSize(statuses.get(429).get())
                .allSatisfy(s -> assertThat(Long.parseLong(s)).isBetween(1L, 2L));
        assertThat(problemTypes).allMatch("application/problem+json"::equals);
    }
}

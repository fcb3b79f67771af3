package dev.mnemos.server.api;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Thousands of generated hostile requests (seeded) against every POST/PUT endpoint: wrong types, deep nesting,
 * NUL and lone surrogates, huge strings, trailing data, broken JSON, odd path ids. Every body carries at least one
 * defect, so each must be refused: 0 answers >= 500, and the fuzzed user's session and profile are unchanged.
 */
@QuarkusTest
class ApiFuzzTest {

    static final long SEED = 20261201L;
    static final int REQUESTS = 2000;

    /** One endpoint: method, path with {s} (session), {u} (user), {f} (fact), {p} (candidate), its fields. */
    record Endpoint(String method, String path, List<String> fields) {
    }

    static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("POST", "/v1/sessions", List.of("goal", "context", "constraints")),
            new Endpoint("POST", "/v1/users/{u}/sessions", List.of("goal", "context", "constraints")),
            new Endpoint("POST", "/v1/sessions/{s}/steps", List.of("expectedVersion", "patch", "note")),
            new Endpoint("POST", "/v1/users/{u}/sessions/{s}/steps", List.of("expectedVersion", "patch", "note")),
            new Endpoint("POST", "/v1/sessions/{s}/observations",
                    List.of("text", "kind", "scope", "slot", "explicit", "evidence")),
            new Endpoint("POST", "/v1/sessions/{s}/rollback", List.of("toVersion", "expectedVersion")),
            new Endpoint("POST", "/v1/sessions/{s}/fork", List.of("fromVersion")),
            new Endpoint("POST", "/v1/sessions/{s}/end", List.of()),
            new Endpoint("POST", "/v1/profile/facts", List.of("category", "slot", "text", "confidence", "taskState")),
            new Endpoint("PUT", "/v1/profile/facts/{f}", List.of("category", "slot", "text", "confidence", "taskState")),
            new Endpoint("POST", "/v1/users/{u}/profile/facts", List.of("text", "slot")),
            new Endpoint("POST", "/v1/profile/instruct", List.of("instruction")),
            new Endpoint("POST", "/v1/profile/import", List.of("text")),
            new Endpoint("POST", "/v1/profile/pending/{p}/confirm", List.of()),
            new Endpoint("POST", "/v1/profile/pending/{p}/reject", List.of()),
            new Endpoint("POST", "/v1/agent/chat", List.of("sessionId", "message")),
            new Endpoint("POST", "/v1/users/{u}/agent/chat", List.of("sessionId", "message")));

    static final List<String> PATCH_FIELDS = List.of("goal", "context", "summary", "addConstraints",
            "removeConstraints", "putCollected", "removeCollected", "stepPointer", "addPlan", "evaluatePlan",
            "addOpenQuestions", "answerOpenQuestions", "addObservations");

    static final List<String> ODD_IDS = List.of("..", "%2E%2E", "-1", "0", "%00", "a%00b", "%ED%A0%80", "%F0%9F%9A%80",
            "x".repeat(300), "a%2Fb", "1e9", "99999999999999999999", "%20", "null", "%7B%7D", "%5B%5D",
            "%27%20or%201%3D1%20--", "s%3Bx", "%C0%AE%C0%AE");

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TestHTTPResource("/")
    URL root;

    final String user = "fuzz-" + UUID.randomUUID();
    final Random random = new Random(SEED);

    static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).urlEncodingEnabled(false);
    }

    @Test
    void hostileRequestsAreRefusedWithoutA5xxAndWriteNothing() {
        String session = as(user).contentType(ContentType.JSON).body(Map.of("goal", "fuzzed"))
                .post("/v1/sessions").then().statusCode(201).extract().path("sessionId");
        long fact = as(user).contentType(ContentType.JSON).body(Map.of("text", "Lives in Porto"))
                .post("/v1/profile/facts").then().statusCode(201).extract().jsonPath().getLong("changes[0].factId");
        String before = snapshot(session);

        String token = Tokens.user(user);
        long started = System.nanoTime();
        Map<Integer, Integer> statuses = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            Endpoint endpoint = ENDPOINTS.get(random.nextInt(ENDPOINTS.size()));
            boolean bodiless = endpoint.fields().isEmpty();
            String path = endpoint.path().replace("{u}", bodiless || random.nextInt(4) > 0 ? user : odd())
                    .replace("{s}", bodiless || random.nextInt(3) == 0 ? odd() : session)
                    .replace("{f}", random.nextInt(3) == 0 ? odd() : Long.toString(fact))
                    .replace("{p}", odd());
            String body = bodiless ? anything(0) : hostileBody(endpoint);
            HttpResponse<String> r = send(endpoint.method(), path, contentType(), body, token);
            statuses.merge(r.statusCode(), 1, Integer::sum);
            if (r.statusCode() >= 500 || r.statusCode() < 400) {
                failures.add(r.statusCode() + " " + endpoint.method() + " " + abbreviate(path) + " " + abbreviate(body));
            } else if (!r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json")) {
                failures.add("not a problem: " + r.statusCode() + " " + endpoint.method() + " " + abbreviate(path));
            }
        }
        System.out.println("ApiFuzzTest: " + REQUESTS + " requests (seed " + SEED + ") in "
                + (System.nanoTime() - started) / 1_000_000 + " ms, statuses " + statuses);
        assertThat(failures).as("answers that are not 4xx problems").isEmpty();
        assertThat(snapshot(session)).as("the fuzzed user's session and profile").isEqualTo(before);
    }

    /**
     * Sends the hostile request as it is (the path's escapes untouched) with the JDK's client: REST Assured
     * spent 0.6–0.8 s on each deeply nested body (the server answers those in a few ms).
     */
    private HttpResponse<String> send(String method, String path, String contentType, String body, String token) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(root.toString().replaceAll("/+$", "") + path))
                .version(HttpClient.Version.HTTP_1_1).header("Authorization", "Bearer " + token)
                .header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Everything the fuzzed user could have written: the session, the live sessions, the profile and its audit trail. */
    private String snapshot(String session) {
        return as(user).get("/v1/sessions/{id}", session).then().statusCode(200).extract().asString()
                + as(user).get("/v1/sessions").then().statusCode(200).extract().asString()
                + as(user).get("/v1/sessions/{id}/versions", session).then().statusCode(200).extract().asString()
                + as(user).get("/v1/profile").then().statusCode(200).extract().asString()
                + as(user).get("/v1/profile/history").then().statusCode(200).extract().asString()
                + as(user).get("/v1/profile/pending").then().statusCode(200).extract().asString();
    }

    private String contentType() {
        return switch (random.nextInt(20)) {
            case 0 -> "text/plain";
            case 1 -> "application/x-www-form-urlencoded";
            default -> "application/json";
        };
    }

    /** A body with at least one defect. */
    private String hostileBody(Endpoint endpoint) {
        StringBuilder json = new StringBuilder("{");
        List<String> fields = new ArrayList<>(endpoint.fields());
        int count = 1 + random.nextInt(fields.size());
        int poisoned = random.nextInt(count);
        for (int i = 0; i < count; i++) {
            String field = fields.remove(random.nextInt(fields.size()));
            if (i > 0) {
                json.append(',');
            }
            json.append(quote(field)).append(':');
            json.append(i == poisoned ? poison(field) : anything(0));
        }
        json.append('}');
        return switch (random.nextInt(12)) {
            case 0 -> json + json.toString(); // trailing data
            case 1 -> json.substring(0, Math.max(1, random.nextInt(json.length()))); // truncated
            case 2 -> random.nextBoolean() ? "" : "null";
            case 3 -> "[" + json + "]";
            default -> json.toString();
        };
    }

    /** A value no field accepts: unsafe text, a huge string, deep nesting, an object where a scalar belongs and the like. */
    private String poison(String field) {
        return switch (random.nextInt(9)) {
            case 0 -> quote("x" + (random.nextBoolean() ? "\u0000" : "\ud800") + "y");
            case 1 -> quote("\udc00");
            case 2 -> "\"" + "h".repeat(270_000) + "\""; // over the 256 KiB body limit
            case 3 -> "[".repeat(2000) + "]".repeat(2000);
            case 4 -> "{\"a\":".repeat(300) + "1" + "}".repeat(300);
            case 5 -> "[[" + anything(1) + "]]"; // no field takes an array of arrays (a bare number would coerce to a string)
            case 6 -> field.equals("patch") ? "{" + quote(PATCH_FIELDS.get(random.nextInt(PATCH_FIELDS.size()))) + ":"
                    + quote("a\u0000") + "}" : "{\"nested\":{\"deeper\":[1,2,{\"x\":null}]}}";
            case 7 -> "{\"unknownField\":" + anything(0) + "}";
            default -> "\"\\ud800\\u0000\"";
        };
    }

    /** Any JSON value, sometimes with unsafe text. */
    private String anything(int depth) {
        return switch (random.nextInt(depth > 2 ? 6 : 9)) {
            case 0 -> Long.toString(random.nextLong());
            case 1 -> random.nextBoolean() ? "true" : "false";
            case 2 -> "null";
            case 3 -> quote(text());
            case 4 -> Double.toString(random.nextGaussian() * 1e6);
            case 5 -> "\"" + "\\u00" + Integer.toHexString(random.nextInt(32) + 256).substring(1) + "\"";
            case 6 -> "[" + anything(depth + 1) + "," + anything(depth + 1) + "]";
            case 7 -> "{" + quote(text()) + ":" + anything(depth + 1) + "}";
            default -> "{\"text\":" + quote(text()) + ",\"kind\":\"PREFERENCE\"}";
        };
    }

    private String text() {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(12);
        for (int i = 0; i < length; i++) {
            s.append(switch (random.nextInt(8)) {
                case 0 -> '\u0000';
                case 1 -> (char) (0xD800 + random.nextInt(0x800));
                case 2 -> '"';
                case 3 -> '\\';
                default -> (char) ('a' + random.nextInt(26));
            });
        }
        return s.toString();
    }

    private String odd() {
        return ODD_IDS.get(random.nextInt(ODD_IDS.size()));
    }

    /**
     * A JSON string literal of {@code s}: quotes, backslashes and control characters escaped, surrogates kept as \\u escapes.
     */
    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || Character.isSurrogate(c)) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "…(" + s.length() + ")" : s;
    }
}

package dev.mnemos.promotion;

import dev.mnemos.support.JtokkitTokenizer;
import dev.mnemos.support.RestApi;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.Tokens;
import dev.mnemos.testsupport.TripAi;
import dev.mnemos.testsupport.TripChatResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;

/**
 * Every transient Postgres state answers 503 with Retry-After, never 500, and nothing acknowledged is lost: the
 * test owns its Postgres ({@link TestPostgres}) and crashes it ({@code pg_ctl stop -m immediate}), starts it
 * again (requests meet "the database system is starting up", 57P03), shuts it down ({@code -m fast}, 57P01),
 * exhausts the pool, all while pooled connections are open and profile writes are in flight.
 */
class PostgresFaultTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings()
            // the application's datasource is the test's own Postgres, started before the application
            .setBeforeAllCustomizer(() -> TestPostgres.start().forEach(PostgresFaultTest.APP::overrideConfigKey))
            .setAfterAllCustomizer(TestPostgres::stop),
            // an AI service with session memory, of the kind a user writes, called over HTTP
            jar -> jar.addClasses(TestPostgres.class, TripAi.class, TripAi.Advice.class, MessageKeyWriter.class,
                    ScriptedChatModel.class, JtokkitTokenizer.class, TripChatResource.class));

    /** One answer: what a client sees. */
    record Answer(String op, int status, String retryAfter, String contentType) {
    }

    @Inject
    AgroalDataSource pool;
    /** The AI service's chat model (injected here, so the application keeps the bean). */
    @Inject
    ScriptedChatModel model;

    final Queue<Answer> answers = new ConcurrentLinkedQueue<>();
    final Map<String, Set<String>> acknowledged = new ConcurrentHashMap<>();
    final AtomicInteger acks = new AtomicInteger();
    final AtomicInteger unavailable = new AtomicInteger();
    /** Keyed writes acknowledged, by user: each was retried with its key after every 503 until it was acknowledged. */
    final Map<String, Set<String>> keyedAcks = new ConcurrentHashMap<>();
    /** Keyed writes that met at least one 503 before their acknowledgement. */
    final AtomicInteger keyedRetried = new AtomicInteger();

    @Test
    void profileWritesThroughCrashRestartAndShutdownAnswer503AndLoseNothingAcknowledged() throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> clients = new ArrayList<>();
        CountDownLatch started = new CountDownLatch(5);
        for (int w = 0; w < 3; w++) {
            clients.add(started(new Thread(() -> writer(running, started))));
        }
        clients.add(started(new Thread(() -> keyedWriter(running, started))));
        clients.add(started(new Thread(() -> reader(running, started))));
        started.await();
        String user = "end-" + UUID.randomUUID();
        String session = start(user);
        observe(user, session, "From now on, answer in French", null, true);

        await("writes acknowledged before the fault", () -> acks.get(), acks.get() + 10);
        TestPostgres.stopServer("immediate");
        await("503s while Postgres is down", unavailable::get, unavailable.get() + 6);
        var end = as(user).post("/v1/sessions/{id}/end", session);
        assertThat(end.statusCode()).as("/end while Postgres is down").isEqualTo(503);
        assertThat(end.header("Retry-After")).isNotNull();
        // a keyed create asks the archive whether its key's session ended: 503; without a key, Redis only
        var keyed = as(user).header("Idempotency-Key", "while-postgres-is-down").body(Map.of("goal", "g"))
                .post("/v1/sessions");
        assertThat(keyed.statusCode()).as("a keyed create while Postgres is down").isEqualTo(503);
        assertThat(keyed.header("Retry-After")).isNotNull();
        String created = as(user).body(Map.of("goal", "g")).post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
        as(user).get("/v1/sessions/{id}", session).then().statusCode(200).body("status", equalTo("ACTIVE"));
        // an AI service's step (@SessionMemory) in the session just created, as the server's agent creates its session
        // and steps, goes on without the profile
        given().auth().oauth2(Tokens.user(user)).contentType(ContentType.TEXT).body("I want to plan a trip to Lisbon")
                .post("/test/trip-chat/{id}", created).then().statusCode(200);
        assertThat(model.requests()).as("the step reached the model").hasSize(1);

        TestPostgres.startServer(false); // requests now meet a server that is starting up
        await("writes acknowledged after the restart", acks::get, acks.get() + 10);
        TestPostgres.stopServer("fast");
        await("503s after an admin shutdown", unavailable::get, unavailable.get() + 6);
        TestPostgres.startServer(true);
        await("writes acknowledged after the second restart", acks::get, acks.get() + 10);
        running.set(false);
        for (Thread client : clients) {
            client.join(TimeUnit.SECONDS.toMillis(60));
        }

        as(user).post("/v1/sessions/{id}/end", session).then().statusCode(200);
        as(user).get("/v1/profile").then().statusCode(200).body("facts.text",
                equalTo(List.of("From now on, answer in French")));
        int present = 0;
        for (var entry : acknowledged.entrySet()) {
            List<String> facts = as(entry.getKey()).get("/v1/profile").then().statusCode(200).extract().jsonPath()
                    .getList("facts.text", String.class);
            assertThat(facts).as("acknowledged facts of " + entry.getKey()).containsAll(entry.getValue());
            present += entry.getValue().size();
        }
        // a keyed write retried after a 503 is applied exactly once, also when the 503 came after its commit:
        // every acknowledged text is there once, added once, with the evidence of one statement
        int keyedWrites = 0;
        for (var entry : keyedAcks.entrySet()) {
            List<String> facts = as(entry.getKey()).get("/v1/profile").then().statusCode(200).extract().jsonPath()
                    .getList("facts.text", String.class);
            assertThat(facts).as("keyed facts of " + entry.getKey()).containsExactlyInAnyOrderElementsOf(entry.getValue());
            List<String> actions = as(entry.getKey()).get("/v1/profile/history?limit=1000").then().statusCode(200)
                    .extract().jsonPath().getList("events.action", String.class);
            assertThat(actions).as("audit events of " + entry.getKey()).hasSize(entry.getValue().size())
                    .containsOnly("ADD");
            keyedWrites += entry.getValue().size();
        }
        System.out.printf("PostgresFaultTest: %d keyed writes acknowledged once each, %d of them after a 503%n", keyedWrites,
                keyedRetried.get());
        assertThat(keyedRetried.get()).as("keyed writes retried after a 503").isPositive();
        List<Answer> all = List.copyOf(answers);
        long count503 = all.stream().filter(a -> a.status() == 503).count();
        System.out.printf("PostgresFaultTest: %d answers, %d acknowledged writes all present (%d), %d x 503%n",
                all.size(), acks.get(), present, count503);
        assertThat(all).as("answers >= 500 other than 503").filteredOn(a -> a.status() >= 500 && a.status() != 503)
                .isEmpty();
        assertThat(all).as("503 without Retry-After or problem+json")
                .filteredOn(a -> a.status() == 503
                        && (a.retryAfter() == null || !a.contentType().startsWith("application/problem+json")))
                .isEmpty();
        assertThat(all).as("answers other than 200/201/503").filteredOn(a -> a.status() != 200 && a.status() != 201
                && a.status() != 503).isEmpty();
        assertThat(count503).isGreaterThanOrEqualTo(12);
    }

    @Test
    void anExhaustedPoolAnswers503WithRetryAfter() throws Exception {
        String user = "pool-" + UUID.randomUUID();
        as(user).body(Map.of("text", "Likes tea")).post("/v1/profile/facts").then().statusCode(201);
        List<Connection> held = new ArrayList<>();
        try {
            while (held.size() < pool.getConfiguration().connectionPoolConfiguration().maxSize()) {
                held.add(pool.getConnection());
            }
            as(user).get("/v1/profile").then().statusCode(503).contentType("application/problem+json")
                    .header("Retry-After", notNullValue());
            as(user).body(Map.of("text", "Likes coffee")).post("/v1/profile/facts").then().statusCode(503)
                    .header("Retry-After", notNullValue());
            as(user).body(Map.of("instruction", "remember I like cake")).post("/v1/profile/instruct").then()
                    .statusCode(503).header("Retry-After", notNullValue());
            as(user).get("/v1/profile/pending").then().statusCode(503).header("Retry-After", notNullValue());
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
        as(user).get("/v1/profile").then().statusCode(200).body("facts", hasSize(1));
    }

    private void writer(AtomicBoolean running, CountDownLatch started) {
        started.countDown();
        String user = "pg-" + UUID.randomUUID();
        int written = 0;
        for (int i = 0; running.get(); i++) {
            if (written == 30) { // well below the profile's cap of active facts
                user = "pg-" + UUID.randomUUID();
                written = 0;
            }
            String text = "Item " + i + " to remember: " + UUID.randomUUID();
            Response r = as(user).body(Map.of("text", text)).post("/v1/profile/facts");
            record("add", r);
            if (r.statusCode() == 201) {
                acknowledged.computeIfAbsent(user, u -> ConcurrentHashMap.newKeySet()).add(text);
                written++;
                acks.incrementAndGet();
            }
        }
    }

    /**
     * Profile writes with an Idempotency-Key, each sent again with its key after every 503 until it is acknowledged
     * (also after the faults end): what a client that follows the 503's advice does.
     */
    private void keyedWriter(AtomicBoolean running, CountDownLatch started) {
        started.countDown();
        String user = "pg-keyed-" + UUID.randomUUID();
        for (int i = 0; running.get(); i++) {
            if (i > 0 && i % 30 == 0) { // well below the profile's cap of active facts
                user = "pg-keyed-" + UUID.randomUUID();
            }
            String text = "Keyed item " + i + ": " + UUID.randomUUID();
            String key = "fault-" + i;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            boolean met503 = false;
            while (true) {
                Response r = as(user).header("Idempotency-Key", key).body(Map.of("text", text)).post("/v1/profile/facts");
                record("keyed add", r);
                if (r.statusCode() == 201) {
                    keyedAcks.computeIfAbsent(user, u -> ConcurrentHashMap.newKeySet()).add(text);
                    if (met503) {
                        keyedRetried.incrementAndGet();
                    }
                    break;
                }
                met503 = true;
                if (r.statusCode() != 503 || System.nanoTime() > deadline) {
                    break; // recorded: the assertions on all answers fail on it
                }
                try {
                    Thread.sleep(25);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void reader(AtomicBoolean running, CountDownLatch started) {
        started.countDown();
        String user = "pg-reader-" + UUID.randomUUID();
        while (running.get()) {
            record("read", as(user).get("/v1/profile"));
            record("history", as(user).get("/v1/profile/history"));
        }
    }

    private void record(String op, Response r) {
        answers.add(new Answer(op, r.statusCode(), r.header("Retry-After"), String.valueOf(r.contentType())));
        if (r.statusCode() == 503) {
            unavailable.incrementAndGet();
        }
    }

    /** Waits for an event (a counter reaching {@code target}) that the clients report; fails after 90 s. */
    private static void await(String what, IntSupplier counter, int target) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (counter.getAsInt() < target) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static Thread started(Thread thread) {
        thread.start();
        return thread;
    }
}

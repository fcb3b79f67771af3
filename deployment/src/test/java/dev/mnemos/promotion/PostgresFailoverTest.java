package dev.mnemos.promotion;

import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.support.Failover;
import dev.mnemos.support.JtokkitTokenizer;
import dev.mnemos.support.RestApi;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.Tokens;
import dev.mnemos.testsupport.TripAi;
import dev.mnemos.testsupport.TripChatResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Postgres fails over during 200 concurrent {@code /end}s (issue 49 item 4): a primary and a synchronous standby of the
 * test's own ({@link TestPostgresPair}), the application on the multi-host URL an operator writes; midway the primary is
 * killed ({@code kill -9}) and the standby promoted ({@code pg_ctl promote}), as a failover controller does. Half the
 * clients retry each 503 after its {@code Retry-After}; the other half go away after their first 503, and the end sweep
 * completes what they left ENDED. Counted afterwards, on the new primary: every session is archived and promoted once or
 * not ended at all, none is left ENDED, every acknowledged end's promotion and every acknowledged profile write is there.
 * The application has a Redis of its own ({@link TestRedisServer}) so its sweep sees no other test's sessions. Owning
 * both stores, the class also measures, before the failover, what a step costs in Redis and an end in Postgres (the
 * sizing table of docs/operations.md).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag(Failover.TAG)
class PostgresFailoverTest {

    static final int SESSIONS = 200;
    static final int CLIENTS = 24;
    /** The primary is killed once this many ends have been acknowledged. */
    static final int KILL_AFTER = 50;
    /** How long the failover controller takes to promote the standby after the kill. */
    static final long DETECTION_MILLIS = 1000;
    static final TestRedisServer REDIS = new TestRedisServer();
    /** The cost measurements feed docs/operations.md's sizing table; they are not run with every build. */
    static final String COSTS = "a measurement for docs/operations.md: run with -Dmnemos.costs=true";

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false")
            .overrideConfigKey("quarkus.mnemos.promotion.end-sweep-interval", "0")
            .overrideConfigKey("quarkus.mnemos.promotion.end-sweep-grace", "0s")
            .setBeforeAllCustomizer(() -> {
                REDIS.start().forEach(PostgresFailoverTest.APP::overrideConfigKey);
                TestPostgresPair.start().forEach(PostgresFailoverTest.APP::overrideConfigKey);
            })
            .setAfterAllCustomizer(() -> {
                TestPostgresPair.stop();
                REDIS.stop();
            }),
            jar -> jar.addClasses(TestPostgres.class, TestPostgresPair.class, TestRedisServer.class, TripAi.class,
                    TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class, JtokkitTokenizer.class,
                    TripChatResource.class));

    @Inject
    AgroalDataSource db;
    @Inject
    SessionStore store;
    @Inject
    EndSweep sweep;
    @Inject
    RedisDataSource redis;
    /** The AI service's chat model (injected here, so the application keeps the bean). */
    @Inject
    ScriptedChatModel model;

    /** One session to end: its user, id and the text its observation promotes. */
    record Ending(String user, String session, String text, boolean retries) {
    }

    final AtomicInteger acks = new AtomicInteger();
    final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    final Set<String> answered503 = ConcurrentHashMap.newKeySet();
    final AtomicInteger ended503 = new AtomicInteger();
    final AtomicInteger gaveUp = new AtomicInteger();
    final AtomicLong killedAt = new AtomicLong();
    final AtomicLong firstAckAfterKill = new AtomicLong();
    /** Ends acknowledged (200) and the text each report says it promoted. */
    final Map<String, String> acknowledgedEnds = new ConcurrentHashMap<>();
    /** Profile writes acknowledged (201) during the run, by user. */
    final Map<String, Set<String>> acknowledgedFacts = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<String> other = new ConcurrentLinkedQueue<>();
    final AtomicReference<RuntimeException> failoverFailed = new AtomicReference<>();

    @Test
    @Order(3)
    void endsThroughAPrimaryKilledMidwayArePromotedOnceAndNothingAcknowledgedIsLost() throws Exception {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        List<Ending> endings = sessions(tag);

        AtomicBoolean writing = new AtomicBoolean(true);
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int n = w;
            Thread t = new Thread(() -> writer(tag + "-w" + n, writing));
            t.start();
            writers.add(t);
        }
        Thread failover = new Thread(this::failover);
        failover.start();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        long began = System.nanoTime();
        try {
            List<Future<?>> ends = new ArrayList<>();
            for (Ending e : endings) {
                ends.add(clients.submit(() -> end(e)));
            }
            for (Future<?> f : ends) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        long clientsDone = System.nanoTime();
        failover.join(TimeUnit.SECONDS.toMillis(60));
        if (failoverFailed.get() != null) {
            throw failoverFailed.get();
        }
        writing.set(false);
        for (Thread t : writers) {
            t.join(TimeUnit.SECONDS.toMillis(60));
        }
        int leftEnded = ended(endings);
        int swept = sweep.sweep();

        int archivedOnce = 0;
        int notEnded = 0;
        int lost = 0;
        int doubled = 0;
        int stillEnded = 0;
        for (Ending e : endings) {
            long archives = count("select count(*) from session_archive where user_id = ? and session_id = ?", e.user(),
                    e.session());
            long events = count(
                    "select count(*) from profile_event where user_id = ? and session_id = ? and action = 'PROMOTE'",
                    e.user(), e.session());
            long facts = count("select count(*) from profile_fact where user_id = ? and text = ? and status = 'ACTIVE'",
                    e.user(), e.text());
            SessionState.Status status = status(e.session());
            if (status == SessionState.Status.ENDED) {
                stillEnded++;
            }
            if (archives > 1 || events > 1 || facts > 1) {
                doubled++;
            } else if (archives == 1 && (events != 1 || facts != 1)) {
                lost++;
            } else if (archives == 1) {
                archivedOnce++;
            } else if (status == SessionState.Status.ACTIVE && events == 0 && facts == 0) {
                notEnded++; // its client went away before the end marked it ENDED: nothing to promote yet
            } else {
                lost++;
            }
        }
        int ackLost = 0;
        for (var ack : acknowledgedEnds.entrySet()) {
            Ending e = endings.stream().filter(x -> x.session().equals(ack.getKey())).findFirst().orElseThrow();
            if (count("select count(*) from profile_fact where user_id = ? and text = ? and status = 'ACTIVE'", e.user(),
                    ack.getValue()) != 1) {
                ackLost++;
            }
        }
        int factsAcked = 0;
        int factsLost = 0;
        for (var user : acknowledgedFacts.entrySet()) {
            for (String text : user.getValue()) {
                factsAcked++;
                if (count("select count(*) from profile_fact where user_id = ? and text = ? and status = 'ACTIVE'",
                        user.getKey(), text) != 1) {
                    factsLost++;
                }
            }
        }
        System.out.printf("PostgresFailoverTest: %d ends by %d clients in %d ms, primary killed after %d acks and the"
                + " standby promoted %d ms later; an end sent after the kill first succeeded %d ms after it%n", SESSIONS,
                CLIENTS,
                TimeUnit.NANOSECONDS.toMillis(clientsDone - began), KILL_AFTER, DETECTION_MILLIS,
                firstAckAfterKill.get() == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(firstAckAfterKill.get() - killedAt.get()));
        System.out.printf("PostgresFailoverTest: answers %s; %d sessions met a 503 (%d of them with sessionStatus ENDED),"
                + " %d clients gave up after one%n", statuses, answered503.size(), ended503.get(), gaveUp.get());
        System.out.printf("PostgresFailoverTest: after the clients %d sessions were left ENDED, the sweep completed %d;"
                + " then %d archived and promoted once, %d never ended (client gone before ENDED), %d left ENDED,"
                + " %d lost promotions, %d double promotions; %d acknowledged ends and %d acknowledged profile writes,"
                + " %d and %d of them missing after failover%n", leftEnded, swept, archivedOnce, notEnded, stillEnded,
                lost, doubled, acknowledgedEnds.size(), factsAcked, ackLost, factsLost);
        assertThat(other).as("answers other than 200 and 503").isEmpty();
        assertThat(killedAt.get()).as("the primary was killed").isPositive();
        assertThat(acknowledgedEnds.size()).as("ends acknowledged").isGreaterThan(KILL_AFTER);
        assertThat(answered503).as("ends the failover answered 503").isNotEmpty();
        assertThat(firstAckAfterKill.get()).as("ends acknowledged after the failover").isPositive();
        assertThat(swept).as("the sweep completes exactly the sessions left ENDED").isEqualTo(leftEnded);
        assertThat(lost).as("lost promotions").isZero();
        assertThat(doubled).as("double promotions").isZero();
        assertThat(stillEnded).as("sessions left ENDED").isZero();
        assertThat(archivedOnce + notEnded).isEqualTo(SESSIONS);
        assertThat(ackLost).as("acknowledged ends whose promotion is missing").isZero();
        assertThat(factsAcked).as("profile writes acknowledged").isPositive();
        assertThat(factsLost).as("acknowledged profile writes missing").isZero();
    }

    /**
     * What one step of an AI service ({@code @SessionMemory}: read the session and the profile, render, call the model,
     * write) costs in Redis, measured on the Redis only this class uses: commands and their Redis CPU time
     * ({@code INFO commandstats}), bytes on the wire ({@code INFO stats}) and bytes kept ({@code MEMORY USAGE} of every
     * key of the sessions). docs/operations.md "Capacity" takes these figures. Asserts only that it measured.
     */
    @Test
    @EnabledIfSystemProperty(named = "mnemos.costs", matches = "true", disabledReason = COSTS)
    @Order(1)
    void whatAStepCostsInRedis() {
        String user = "step-cost-" + UUID.randomUUID();
        as(user).body(Map.of("text", "Prefers aisle seats")).post("/v1/profile/facts").then().statusCode(201);
        String answer = "Here is a plan for the next day: a morning walk along the river, lunch near the market, "
                .repeat(4);
        model.script(request -> answer);
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sessions.add(start(user));
        }
        chat(user, sessions.get(0), "warm-up"); // scripts loaded, connections open
        Map<String, long[]> before = commandStats();
        long[] netBefore = net();
        int steps = 0;
        for (int round = 0; round < 20; round++) {
            for (String session : sessions) {
                chat(user, session, "Step " + round + ": what should we do next on this trip to Lisbon?");
                steps++;
            }
        }
        Map<String, long[]> after = commandStats();
        long[] netAfter = net();
        StringBuilder perStep = new StringBuilder();
        long calls = 0;
        long usec = 0;
        for (var e : after.entrySet()) {
            long[] was = before.getOrDefault(e.getKey(), new long[2]);
            long c = e.getValue()[0] - was[0];
            if (c > 0 && !e.getKey().equals("info")) {
                perStep.append(String.format(Locale.ROOT, " %s %.2f (%.1f us)", e.getKey(), (double) c / steps,
                        (double) (e.getValue()[1] - was[1]) / c));
                calls += c;
                usec += e.getValue()[1] - was[1];
            }
        }
        long kept = 0;
        for (String key : redis.key().keys("*")) {
            if (sessions.stream().anyMatch(key::contains)) {
                kept += redis.execute("MEMORY", "USAGE", key, "SAMPLES", "0").toLong();
            }
        }
        System.out.printf(Locale.ROOT, "PostgresFailoverTest: one AI-service step (5 sessions x 20 steps): %.2f Redis commands"
                + " (%s), %.1f us of Redis CPU, %d bytes in and %d out on the wire; %d bytes kept per session after 21"
                + " steps (MEMORY USAGE)%n", (double) calls / steps, perStep.toString().trim(), (double) usec / steps,
                (netAfter[0] - netBefore[0]) / steps, (netAfter[1] - netBefore[1]) / steps, kept / sessions.size());
        assertThat(calls).isPositive();
        assertThat(kept).isPositive();
    }

    /**
     * What one {@code /end} costs in Postgres, on the primary with its synchronous standby (before the failover):
     * statements are counted by {@code ProfileSqlTest}; here the Postgres CPU time of primary and standby (their
     * processes' ticks), the WAL the primary wrote, and the bytes of the rows, for ends of sessions with four
     * observations (two promoted, one rejected, one left pending) and a 1.1 KB plan, ended one after another.
     */
    @Test
    @EnabledIfSystemProperty(named = "mnemos.costs", matches = "true", disabledReason = COSTS)
    @Order(2)
    void whatAnEndCostsInPostgres() throws Exception {
        int ends = 40;
        List<String[]> sessions = new ArrayList<>();
        for (int i = 0; i < ends; i++) {
            String user = "end-cost-" + UUID.randomUUID();
            String session = start(user);
            as(user).body(Map.of("patch", Map.of("addObservations", List.of(
                    Map.of("text", "From now on, use 24-hour times", "kind", "PREFERENCE", "explicit", true),
                    Map.of("text", "Always cite your sources", "kind", "PREFERENCE", "explicit", true),
                    Map.of("text", "My budget is $500 for this trip", "kind", "PREFERENCE", "explicit", true),
                    Map.of("text", "Likes window seats", "kind", "PREFERENCE", "explicit", false)),
                    "addPlan", Map.of("content", "day by day: temples, gardens, markets\n".repeat(28)))))
                    .post("/v1/sessions/{id}/steps", session).then().statusCode(200);
            sessions.add(new String[] { user, session });
        }
        as(sessions.get(0)[0]).post("/v1/sessions/{id}/end", sessions.get(0)[1]).then().statusCode(200); // warm-up
        long wal = walBytes();
        long primary = TestPostgresPair.cpuTicks("primary");
        long standby = TestPostgresPair.cpuTicks("standby");
        long began = System.nanoTime();
        for (String[] s : sessions.subList(1, ends)) {
            as(s[0]).post("/v1/sessions/{id}/end", s[1]).then().statusCode(200).body("promoted.size()",
                    org.hamcrest.Matchers.equalTo(2));
        }
        long elapsed = System.nanoTime() - began;
        int measured = ends - 1;
        double tick = 1000.0 / 100; // ms a clock tick (USER_HZ)
        long rows = 0;
        for (String[] s : sessions.subList(1, ends)) {
            rows += count("select (select coalesce(sum(pg_column_size(t.*)), 0) from session_archive t where user_id = ?"
                    + " and session_id = ?) + (select coalesce(sum(pg_column_size(t.*)), 0) from profile_event t where"
                    + " user_id = ? and session_id = ?) + (select coalesce(sum(pg_column_size(t.*)), 0) from"
                    + " promotion_candidate t where user_id = ? and session_id = ?) + (select coalesce(sum("
                    + "pg_column_size(t.*)), 0) from profile_fact t where user_id = ? and source_session_id = ?)",
                    s[0], s[1], s[0], s[1], s[0], s[1], s[0], s[1]);
        }
        System.out.printf(Locale.ROOT, "PostgresFailoverTest: one /end (%d, one after another, 2 promoted, 1 rejected, 1"
                + " pending): %.1f ms wall, Postgres CPU %.2f ms on the primary and %.2f ms on the synchronous standby,"
                + " %d WAL bytes, %d row bytes%n", measured, elapsed / 1e6 / measured,
                (TestPostgresPair.cpuTicks("primary") - primary) * tick / measured,
                (TestPostgresPair.cpuTicks("standby") - standby) * tick / measured, (walBytes() - wal) / measured,
                rows / measured);
        assertThat(rows).isPositive();
    }

    private long walBytes() throws Exception {
        try (Connection c = db.getConnection();
                PreparedStatement q = c
                        .prepareStatement("select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint");
                ResultSet r = q.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }

    private static void chat(String user, String session, String message) {
        given().auth().oauth2(Tokens.user(user)).contentType(ContentType.TEXT).body(message)
                .post("/test/trip-chat/{id}", session).then().statusCode(200);
    }

    /** {@code INFO commandstats}: calls and microseconds by command. */
    private Map<String, long[]> commandStats() {
        Map<String, long[]> stats = new HashMap<>();
        for (String line : redis.execute("INFO", "commandstats").toString().split("\r?\n")) {
            Matcher m = Pattern.compile("^cmdstat_([^:]+):calls=(\\d+),usec=(\\d+)").matcher(line);
            if (m.find()) {
                stats.put(m.group(1), new long[] { Long.parseLong(m.group(2)), Long.parseLong(m.group(3)) });
            }
        }
        return stats;
    }

    /** {@code INFO stats}: bytes Redis received and sent. */
    private long[] net() {
        String info = redis.execute("INFO", "stats").toString();
        return new long[] { stat(info, "total_net_input_bytes"), stat(info, "total_net_output_bytes") };
    }

    private static long stat(String info, String name) {
        Matcher m = Pattern.compile(name + ":(\\d+)").matcher(info);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** {@link #SESSIONS} sessions of a user each, with one explicit preference to promote; every other client retries. */
    private List<Ending> sessions(String tag) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Ending>> made = new ArrayList<>();
            for (int i = 0; i < SESSIONS; i++) {
                int n = i;
                made.add(pool.submit(() -> {
                    String user = "failover-" + tag + "-" + n;
                    String session = start(user);
                    String text = "From now on, answer with bullet points"; // a standing preference: promoted
                    observe(user, session, text, null, true);
                    return new Ending(user, session, text, n % 2 == 0);
                }));
            }
            List<Ending> all = new ArrayList<>();
            for (Future<Ending> f : made) {
                all.add(f.get(60, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    /** What a client does: ends the session, and after a 503 waits its Retry-After and ends it again (or goes away). */
    private void end(Ending e) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            long sent = System.nanoTime();
            Response r = as(e.user()).post("/v1/sessions/{id}/end", e.session());
            statuses.computeIfAbsent(r.statusCode(), s -> new AtomicInteger()).incrementAndGet();
            if (r.statusCode() == 200) {
                List<String> promoted = r.jsonPath().getList("promoted.text", String.class);
                acknowledgedEnds.put(e.session(), promoted.isEmpty() ? "" : promoted.get(0));
                acks.incrementAndGet();
                long killed = killedAt.get();
                if (killed != 0 && sent > killed) {
                    firstAckAfterKill.accumulateAndGet(System.nanoTime(), (a, b) -> a == 0 ? b : Math.min(a, b));
                }
                return;
            }
            if (r.statusCode() != 503) {
                other.add(r.statusCode() + " " + r.body().asString());
                return;
            }
            answered503.add(e.session());
            if (r.header("Retry-After") == null || !r.contentType().startsWith("application/problem+json")) {
                other.add("503 without Retry-After or problem+json: " + r.headers() + " " + r.body().asString());
            }
            if ("ENDED".equals(r.jsonPath().getString("sessionStatus"))) {
                ended503.incrementAndGet();
            }
            if (!e.retries()) {
                gaveUp.incrementAndGet();
                return;
            }
            if (System.nanoTime() > deadline || failoverFailed.get() != null) {
                other.add("no 200 within 60 s for " + e.session());
                return;
            }
            String after = r.header("Retry-After");
            sleep(TimeUnit.SECONDS.toMillis(after == null ? 2 : Long.parseLong(after)));
        }
    }

    /** The primary is killed once {@link #KILL_AFTER} ends were acknowledged; the standby is promoted a moment later. */
    private void failover() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (acks.get() < KILL_AFTER && System.nanoTime() < deadline) {
            sleep(2);
        }
        try {
            TestPostgresPair.killPrimary();
            killedAt.set(System.nanoTime());
            sleep(DETECTION_MILLIS);
            TestPostgresPair.promoteStandby();
        } catch (RuntimeException e) {
            failoverFailed.set(e);
        }
    }

    /** Profile writes of one user at a time during the run, each acknowledged one remembered. */
    private void writer(String prefix, AtomicBoolean running) {
        String user = prefix + "-0";
        for (int i = 0; running.get(); i++) {
            if (i > 0 && i % 30 == 0) { // well below the profile's cap of active facts
                user = prefix + "-" + i;
            }
            String text = "Item " + i + " to remember: " + UUID.randomUUID();
            Response r = as(user).body(Map.of("text", text)).post("/v1/profile/facts");
            if (r.statusCode() == 201) {
                acknowledgedFacts.computeIfAbsent(user, u -> ConcurrentHashMap.newKeySet()).add(text);
            } else if (r.statusCode() == 503) {
                sleep(100);
            } else {
                other.add("fact write " + r.statusCode() + " " + r.body().asString());
            }
        }
    }

    private int ended(List<Ending> endings) {
        return (int) endings.stream().filter(e -> status(e.session()) == SessionState.Status.ENDED).count();
    }

    private SessionState.Status status(String session) {
        try {
            return store.get(session).status();
        } catch (SessionNotFoundException gone) {
            return null;
        }
    }

    private long count(String sql, String... args) throws Exception {
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                q.setString(i + 1, args[i]);
            }
            try (ResultSet rows = q.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

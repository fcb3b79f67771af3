package dev.mnemos.promotion;

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
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.start;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Postgres fails over during 200 concurrent {@code /end}s (issue 49 item 4, the load and counts of
 * {@link EndsThroughFailover}): a primary and a synchronous standby of the test's own ({@link TestPostgresPair}), the
 * application on the multi-host URL an operator writes; midway the primary is killed ({@code kill -9}) and the standby
 * promoted ({@code pg_ctl promote}) one second later, the test playing the failover controller ({@link PgAutoFailoverTest}
 * leaves that to pg_auto_failover). The application has a Redis of its own ({@link TestRedisServer}) so its sweep sees
 * no other test's sessions. Owning both stores, the class also measures, before the failover, what a step costs in
 * Redis and an end in Postgres (the sizing table of docs/operations.md).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag(Failover.TAG)
class PostgresFailoverTest {

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
            jar -> jar.addClasses(TestPostgres.class, TestPostgresPair.class, EndsThroughFailover.class,
                    EndsThroughFailover.Controller.class, EndsThroughFailover.Ending.class, TestRedisServer.class, TripAi.class,
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

    @Test
    @Order(3)
    void endsThroughAPrimaryKilledMidwayArePromotedOnceAndNothingAcknowledgedIsLost() throws Exception {
        new EndsThroughFailover("PostgresFailoverTest", db, store, sweep, new EndsThroughFailover.Controller() {
            @Override
            public long killPrimary() {
                TestPostgresPair.killPrimary();
                return System.nanoTime();
            }

            @Override
            public String failOver() {
                EndsThroughFailover.sleep(DETECTION_MILLIS);
                TestPostgresPair.promoteStandby();
                return "the standby promoted (pg_ctl promote, by the test) " + DETECTION_MILLIS + " ms later";
            }
        }).run();
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

    private long count(String sql, String... args) throws Exception {
        return EndsThroughFailover.count(db, sql, args);
    }
}

package dev.mnemos.promotion;

import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.agroal.api.AgroalDataSource;
import io.restassured.response.Response;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
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

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The load of issue 49 item 4, against whatever fails Postgres over ({@link Controller}): 200 sessions of 200 users,
 * each with a standing preference to promote, ended by 24 concurrent clients while two more write profile facts; once
 * 50 ends were acknowledged the primary is killed and a standby becomes the primary. Half the clients retry each 503
 * after its {@code Retry-After}; the other half go away after their first 503, and one run of the end sweep completes
 * what they left ENDED. Counted afterwards, on the new primary: every session is archived and promoted once or not
 * ended at all, none is left ENDED, every acknowledged end's promotion and every acknowledged profile write is there.
 * {@link PostgresFailoverTest} plays the failover controller itself ({@code pg_ctl promote}); {@link PgAutoFailoverTest}
 * leaves it to pg_auto_failover's monitor. The test's application must have the end sweep off (interval 0) and no
 * grace, and a Redis of its own, so that the sweep sees no other test's sessions.
 */
final class EndsThroughFailover {

    static final int SESSIONS = 200;
    static final int CLIENTS = 24;
    /** The primary is killed once this many ends have been acknowledged. */
    static final int KILL_AFTER = 50;

    /** What fails Postgres over: the test's own promotion, or a failover controller the test only watches. */
    interface Controller {
        /**
         * Kills the primary as a machine that dies: at once, without a shutdown; returns once it is dead, answering
         * when it died ({@link System#nanoTime()}): the failover's figures count from there.
         */
        long killPrimary();

        /**
         * Returns once a standby has become the primary (promoting it, when the test plays the controller); answers
         * what happened, with its timings, for the figures.
         */
        String failOver();
    }

    /** One session to end: its user, id and the text its observation promotes. */
    record Ending(String user, String session, String text, boolean retries) {
    }

    private final String name;
    private final AgroalDataSource db;
    private final SessionStore store;
    private final EndSweep sweep;
    private final Controller controller;

    final AtomicInteger acks = new AtomicInteger();
    final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    final Set<String> answered503 = ConcurrentHashMap.newKeySet();
    final AtomicInteger ended503 = new AtomicInteger();
    final AtomicInteger gaveUp = new AtomicInteger();
    final AtomicLong killedAt = new AtomicLong();
    /** When the kill began (looking up the primary), and the ends acknowledged once the primary was dead. */
    final AtomicLong killing = new AtomicLong();
    final AtomicInteger acksAtKill = new AtomicInteger();
    final AtomicLong firstAckAfterKill = new AtomicLong();
    /** Ends acknowledged (200) and the text each report says it promoted. */
    final Map<String, String> acknowledgedEnds = new ConcurrentHashMap<>();
    /** Profile writes acknowledged (201) during the run, by user. */
    final Map<String, Set<String>> acknowledgedFacts = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<String> other = new ConcurrentLinkedQueue<>();
    final AtomicReference<RuntimeException> failoverFailed = new AtomicReference<>();
    /** What the controller reported about the failover. */
    final AtomicReference<String> failedOver = new AtomicReference<>("no failover");

    EndsThroughFailover(String name, AgroalDataSource db, SessionStore store, EndSweep sweep, Controller controller) {
        this.name = name;
        this.db = db;
        this.store = store;
        this.sweep = sweep;
        this.controller = controller;
    }

    /** Runs the ends, the writes and the failover, then counts and asserts; prints the figures under the test's name. */
    void run() throws Exception {
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
        System.out.printf("%s: %d ends by %d clients in %d ms, primary killed %d ms into them after %d acks (dead %d ms"
                + " later, %d acks then); %s; an end sent after the kill first succeeded %d ms after it%n", name,
                SESSIONS, CLIENTS, TimeUnit.NANOSECONDS.toMillis(clientsDone - began),
                TimeUnit.NANOSECONDS.toMillis(killing.get() - began), KILL_AFTER,
                TimeUnit.NANOSECONDS.toMillis(killedAt.get() - killing.get()), acksAtKill.get(), failedOver.get(),
                firstAckAfterKill.get() == 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(firstAckAfterKill.get() - killedAt.get()));
        System.out.printf("%s: answers %s; %d sessions met a 503 (%d of them with sessionStatus ENDED),"
                + " %d clients gave up after one%n", name, statuses, answered503.size(), ended503.get(), gaveUp.get());
        System.out.printf("%s: after the clients %d sessions were left ENDED, the sweep completed %d;"
                + " then %d archived and promoted once, %d never ended (client gone before ENDED), %d left ENDED,"
                + " %d lost promotions, %d double promotions; %d acknowledged ends and %d acknowledged profile writes,"
                + " %d and %d of them missing after failover%n", name, leftEnded, swept, archivedOnce, notEnded, stillEnded,
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

    /** The primary is killed once {@link #KILL_AFTER} ends were acknowledged; then a standby becomes the primary. */
    private void failover() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (acks.get() < KILL_AFTER && System.nanoTime() < deadline) {
            sleep(2);
        }
        try {
            killing.set(System.nanoTime());
            killedAt.set(controller.killPrimary());
            acksAtKill.set(acks.get());
            failedOver.set(controller.failOver());
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
        return count(db, sql, args);
    }

    /** The single number a query answers, its {@code ?}s bound to the strings. */
    static long count(AgroalDataSource db, String sql, String... args) throws Exception {
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

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

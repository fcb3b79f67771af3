package dev.mnemos.topology;

import dev.mnemos.session.NewSession;
import dev.mnemos.session.ReplicaWaitException;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.SessionStoreUnavailableException;
import dev.mnemos.session.StepWrite;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * 64 clients stepping sessions through Mnemos' {@link SessionStore} while a Redis master is killed: each client owns a
 * few sessions and writes to them in turn, each step adding an entry {@code n<seq>} of its own to the session's
 * collected values, and records what every step was answered. After the failover every session is read again: an
 * acknowledged step whose entry is missing was lost.
 */
final class FailoverLoad {

    static final int CLIENTS = 64;

    /** How a step ended. */
    enum Kind {
        ACKNOWLEDGED("acknowledged"),
        NOTHING_WRITTEN("503, nothing written"),
        MAY_HAVE_BEEN_APPLIED("503, may have been applied"),
        UNCONFIRMED("503, written on the master, not confirmed by a replica"),
        OTHER("other failure");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** One step: which session, which entry, when it was sent and answered, and what it was answered. */
    record Step(String sessionId, int seq, long sentNanos, long answeredNanos, Kind kind, String message) {
    }

    private final SessionStore store;
    private final List<List<String>> owned = new ArrayList<>();

    /** Creates {@code perClient} sessions for each of the {@link #CLIENTS} clients, one user per client. */
    FailoverLoad(SessionStore store, int perClient) {
        this.store = store;
        for (int c = 0; c < CLIENTS; c++) {
            String user = "failover-" + SessionIds.newId();
            List<String> mine = new ArrayList<>();
            for (int s = 0; s < perClient; s++) {
                mine.add(store.create(NewSession.of(user, SessionPatch.builder().goal("failover").build()).by("t"))
                        .sessionId());
            }
            owned.add(mine);
        }
    }

    List<String> sessions() {
        return owned.stream().flatMap(List::stream).toList();
    }

    /**
     * Steps the sessions for {@code before}, kills, runs {@code afterKill} (waiting for the takeover; the steps go on
     * meanwhile), and steps on until a step of an {@code affected} session sent after the kill is acknowledged (at most
     * {@code recoveryLimit} after the kill), then 300 ms more; reads every session back.
     */
    Result run(Duration before, Predicate<String> affected, Runnable kill, Runnable afterKill, Duration recoveryLimit)
            throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        List<List<Step>> logs = new ArrayList<>();
        List<Thread> clients = new ArrayList<>();
        long[] killedAt = { Long.MAX_VALUE };
        List<Step> recovered = Collections.synchronizedList(new ArrayList<>());
        for (List<String> mine : owned) {
            List<Step> log = new ArrayList<>();
            logs.add(log);
            Thread client = new Thread(() -> {
                int[] next = new int[mine.size()];
                for (int i = 0; !stop.get(); i = (i + 1) % mine.size()) {
                    String id = mine.get(i);
                    int seq = next[i]++;
                    long sent = System.nanoTime();
                    Kind kind = Kind.ACKNOWLEDGED;
                    String message = null;
                    try {
                        store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("n" + seq, "s").build())
                                .by("failover"));
                    } catch (RuntimeException e) {
                        kind = kind(e);
                        message = e.getMessage();
                    }
                    Step step = new Step(id, seq, sent, System.nanoTime(), kind, message);
                    log.add(step);
                    if (kind == Kind.ACKNOWLEDGED && sent > killedAt[0] && affected.test(id)) {
                        recovered.add(step);
                    }
                    if (kind != Kind.ACKNOWLEDGED) {
                        sleepQuietly(20); // a client backs off after a failure, as a real one does
                    }
                }
            }, "failover-client");
            client.start();
            clients.add(client);
        }
        Thread.sleep(before.toMillis());
        long signalled = System.nanoTime();
        kill.run();
        killedAt[0] = signalled;
        long dead = System.nanoTime();
        afterKill.run();
        long takenOver = System.nanoTime();
        long limit = signalled + recoveryLimit.toNanos();
        while (recovered.isEmpty() && System.nanoTime() < limit) {
            Thread.sleep(20);
        }
        Thread.sleep(300);
        stop.set(true);
        for (Thread client : clients) {
            client.join(TimeUnit.SECONDS.toMillis(30));
        }
        List<Step> steps = new ArrayList<>();
        logs.forEach(steps::addAll);
        return new Result(steps, readBack(), affected, signalled, dead, takenOver);
    }

    /** Every session's collected entries, read once the steps stopped (retried while Redis settles). */
    private Map<String, Set<String>> readBack() throws InterruptedException {
        Map<String, Set<String>> entries = new LinkedHashMap<>();
        for (String id : sessions()) {
            for (int attempt = 0;; attempt++) {
                try {
                    SessionState state = store.get(id);
                    entries.put(id, state.collected().keySet());
                    break;
                } catch (RuntimeException e) {
                    if (attempt >= 100) {
                        throw e;
                    }
                    Thread.sleep(50);
                }
            }
        }
        return entries;
    }

    static Kind kind(RuntimeException e) {
        if (e instanceof ReplicaWaitException) {
            return Kind.UNCONFIRMED;
        }
        if (e instanceof SessionStoreUnavailableException u) {
            return u.outcomeUnknown() ? Kind.MAY_HAVE_BEEN_APPLIED : Kind.NOTHING_WRITTEN;
        }
        return e instanceof TimeoutException ? Kind.MAY_HAVE_BEEN_APPLIED : Kind.OTHER;
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the clients were answered and what the sessions hold afterwards. */
    static final class Result {

        final List<Step> steps;
        final Map<String, Set<String>> entries;
        final Predicate<String> affected;
        final long signalled;
        final long dead;
        final long takenOver;

        Result(List<Step> steps, Map<String, Set<String>> entries, Predicate<String> affected, long signalled, long dead,
                long takenOver) {
            this.steps = steps;
            this.entries = entries;
            this.affected = affected;
            this.signalled = signalled;
            this.dead = dead;
            this.takenOver = takenOver;
        }

        boolean present(Step step) {
            return entries.get(step.sessionId()).contains("n" + step.seq());
        }

        long count(Kind kind) {
            return steps.stream().filter(s -> s.kind() == kind).count();
        }

        /** Acknowledged steps whose entry is missing. */
        List<Step> lost() {
            return steps.stream().filter(s -> s.kind() == Kind.ACKNOWLEDGED && !present(s)).toList();
        }

        /** Milliseconds from the kill signal to the answer of the first acknowledged step of the killed range sent after it. */
        long recoveryMillis() {
            return steps.stream().filter(s -> s.kind() == Kind.ACKNOWLEDGED && s.sentNanos() > signalled
                    && affected.test(s.sessionId())).mapToLong(Step::answeredNanos).min()
                    .stream().map(at -> TimeUnit.NANOSECONDS.toMillis(at - signalled)).findFirst().orElse(-1);
        }

        /** Failures of sessions the kill did not concern (served by another master). */
        long failuresElsewhere() {
            return steps.stream().filter(s -> s.kind() != Kind.ACKNOWLEDGED && !affected.test(s.sessionId())).count();
        }

        /** The age at the kill signal, in ms, of every lost acknowledged step (negative: answered after it). */
        List<Long> lostAges() {
            return lost().stream().map(s -> TimeUnit.NANOSECONDS.toMillis(signalled - s.answeredNanos())).sorted()
                    .toList();
        }

        /** Prints the figures as a table. */
        void print(String title) {
            StringBuilder out = new StringBuilder("\n=== ").append(title).append(" ===\n");
            row(out, "clients", CLIENTS);
            row(out, "sessions (on the killed master)", entries.size() + " ("
                    + entries.keySet().stream().filter(affected).count() + ")");
            row(out, "steps sent", steps.size());
            row(out, "steps acknowledged (before the kill)", count(Kind.ACKNOWLEDGED) + " ("
                    + steps.stream().filter(s -> s.kind() == Kind.ACKNOWLEDGED && s.answeredNanos() < signalled).count()
                    + ")");
            List<Long> ages = lostAges();
            row(out, "acknowledged steps lost", ages.size());
            row(out, "  their age at the kill (ms)", ages.isEmpty() ? "-" : ages.get(0) + " .. " + ages.get(ages.size() - 1));
            for (Kind kind : Kind.values()) {
                if (kind == Kind.ACKNOWLEDGED) {
                    continue;
                }
                long n = count(kind);
                long there = steps.stream().filter(s -> s.kind() == kind && present(s)).count();
                row(out, kind.label + " (in the session afterwards)", n + " (" + there + ")");
            }
            row(out, "failures on the other masters", failuresElsewhere());
            row(out, "kill -9 to process gone (ms)", TimeUnit.NANOSECONDS.toMillis(dead - signalled));
            row(out, "kill to takeover seen (ms)", TimeUnit.NANOSECONDS.toMillis(takenOver - signalled));
            row(out, "kill to first acknowledged step on that range (ms)", recoveryMillis());
            out.append("--- what the failures said (first of each) ---\n");
            Map<String, Long> said = new TreeMap<>();
            for (Step s : steps) {
                if (s.kind() != Kind.ACKNOWLEDGED) {
                    said.merge(s.kind().label + ": " + shorten(s.message()), 1L, Long::sum);
                }
            }
            said.forEach((line, n) -> out.append(String.format("  %6d x %s%n", n, line)));
            System.out.println(out);
        }

        private static String shorten(String message) {
            // numbers (ports, versions, ids) vary from one failure to the next: the same failure is counted once
            String m = String.valueOf(message).replace('\n', ' ').replaceAll("[0-9]+", "N");
            return m.length() > 200 ? m.substring(0, 200) + "…" : m;
        }

        private static void row(StringBuilder out, String name, Object value) {
            out.append(String.format("| %-58s | %22s |%n", name, value));
        }
    }
}

package dev.mnemos.session;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Maps a {@link SessionState} to the fields of its Redis hash and back. Scalars have a field each
 * ({@code goal}, {@code step} …) so concurrent patches of different parts never overwrite each
 * other; list items have a field each ({@code c:<id>}, {@code q:<text>}, {@code o:<id>}) whose value
 * starts with an order key {@code <version>.<n>|}; plans are {@code p:<n>} with their evaluation
 * apart in {@code e:<n>}; collected entries are {@code k:<key>}.
 */
final class StateFields {

    private final ObjectMapper json;
    /** How texts are stored: sealed with the owner's data key, or as they are. */
    private final SessionValues values;
    /** Readers resolved once per type: a session read parses dozens of small values. */
    private final Map<Class<?>, ObjectReader> readers;
    /** These fields with {@link SessionValues#withoutBlocking}: this one when the values never block. */
    private final StateFields withoutBlocking;

    StateFields(ObjectMapper json) {
        this(json, SessionValues.CLEAR);
    }

    StateFields(ObjectMapper json, SessionValues values) {
        this.json = storage(json);
        this.values = values;
        this.readers = new ConcurrentHashMap<>();
        SessionValues nonBlocking = values.withoutBlocking();
        this.withoutBlocking = nonBlocking == values ? this : new StateFields(this, nonBlocking);
    }

    /** {@code fields}' mapper and readers with other values. */
    private StateFields(StateFields fields, SessionValues values) {
        this.json = fields.json;
        this.values = values;
        this.readers = fields.readers;
        this.withoutBlocking = this;
    }

    /** Whether texts are sealed: a write or read then needs the session's owner. */
    boolean sealing() {
        return values.on();
    }

    /**
     * Whether the texts of {@code userId}'s session seal and open without blocking (no data key to read in Postgres):
     * always when they are not sealed; never for an unknown (null) owner when they are.
     */
    boolean ready(String userId) {
        return !values.on() || userId != null && values.ready(userId);
    }

    /**
     * These fields where nothing may block: a text whose owner's data key is not in memory fails with
     * {@link SessionValues.NotInMemoryException} ({@link SessionValues#withoutBlocking}).
     */
    StateFields withoutBlocking() {
        return withoutBlocking;
    }

    /** A text as stored for {@code userId} at {@code place} (a state field's name or family, {@code event} …). */
    String seal(String userId, String place, String plain) {
        return values.seal(userId, place, plain);
    }

    /** The text a stored value holds. */
    String open(String userId, String place, String stored) {
        return stored == null ? null : values.open(userId, place, stored);
    }

    /** The field of the open question {@code text}: {@code q:<text>}, or {@code q:<its name>} when texts are sealed. */
    String question(String userId, String text) {
        return "q:" + values.name(userId, "q", text);
    }

    /**
     * A replay entry's event JSON as stored. Sealed, it is led by its time in epoch milliseconds in base 36 (8 characters
     * where decimal takes 13, in every version kept), which {@code session-at.lua} reads as it reads {@code "at"} in a
     * clear one, and the sealed JSON leaves the time out.
     */
    String event(String userId, SessionEvent event) {
        if (!values.on()) {
            return write(event);
        }
        SessionEvent untimed = new SessionEvent(event.version(), event.type(), null, event.actor(), event.note(),
                event.patch(), event.toVersion(), event.state());
        return Long.toString(event.at().toEpochMilli(), 36) + values.seal(userId, "event", write(untimed));
    }

    /** A replay entry's event as {@link #event} stored it. */
    SessionEvent event(String userId, String stored) {
        if (stored.startsWith("{")) {
            return read(stored, SessionEvent.class);
        }
        int at = stored.indexOf('\u0002');
        SessionEvent e = read(open(userId, "event", stored.substring(at)), SessionEvent.class);
        return new SessionEvent(e.version(), e.type(), Instant.ofEpochMilli(Long.parseLong(stored, 0, at, 36)),
                e.actor(), e.note(), e.patch(), e.toVersion(), e.state());
    }

    /**
     * The application's mapper, with instants written as epoch milliseconds: a replayed version
     * parses dozens of stored events, and an ISO-8601 instant costs several times a number to
     * write and to parse. Instants stored as ISO-8601 text by earlier versions still read. Null
     * properties are left out (they read back as null).
     */
    static ObjectMapper storage(ObjectMapper json) {
        return json.copy().setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL)
                .enable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.WRITE_DATE_TIMESTAMPS_AS_NANOSECONDS)
                .disable(DeserializationFeature.READ_DATE_TIMESTAMPS_AS_NANOSECONDS)
                .addMixIn(SessionEvent.class, StoredEvent.class);
    }

    /**
     * A replay entry's event as stored: without {@code version} (the entry's id), without {@code type} when it is
     * PATCH (read back as PATCH) and without {@code actor} (the entry holds it, or names the session's own:
     * {@code replay_entry} in {@code session-common.lua}), which a small step would otherwise pay in every version it
     * keeps. An actor in the JSON, as earlier releases stored it, still reads.
     */
    @JsonIgnoreProperties("version")
    private interface StoredEvent {
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = PatchType.class)
        SessionEvent.Type type();

        @JsonProperty(access = JsonProperty.Access.WRITE_ONLY)
        String actor();
    }

    /** Leaves out the type PATCH ({@link JsonInclude.Include#CUSTOM}: equal means left out). */
    private static final class PatchType {
        @Override
        public boolean equals(Object value) {
            return value == null || value == SessionEvent.Type.PATCH;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /** The hash fields of a whole state (without {@code version}), list items ordered 0.0, 0.1 … */
    Map<String, String> fields(SessionState s) {
        Map<String, String> f = new LinkedHashMap<>();
        String u = s.userId();
        f.put("sessionId", s.sessionId());
        f.put("userId", s.userId());
        f.put("createdAt", Long.toString(s.createdAt().toEpochMilli()));
        f.put("updatedAt", Long.toString(s.updatedAt().toEpochMilli()));
        f.put("status", s.status().name());
        putIfSet(f, "goal", seal(u, "goal", s.goal()));
        putIfSet(f, "context", seal(u, "context", s.context()));
        putIfSet(f, "summary", seal(u, "summary", s.summary()));
        putIfSet(f, "step", s.stepPointer() == null ? null : seal(u, "step", write(s.stepPointer())));
        putIfSet(f, "forkedFrom", s.forkedFrom() == null ? null : write(s.forkedFrom()));
        for (int i = 0; i < s.constraints().size(); i++) {
            f.put("c:" + s.constraints().get(i).id(), "0." + i + "|" + seal(u, "c", write(s.constraints().get(i))));
        }
        for (int i = 0; i < s.openQuestions().size(); i++) {
            String q = s.openQuestions().get(i);
            f.put(question(u, q), "0." + i + "|" + (values.on() ? seal(u, "q", q) : ""));
        }
        for (int i = 0; i < s.observations().size(); i++) {
            f.put("o:" + s.observations().get(i).id(), "0." + i + "|" + seal(u, "o", write(s.observations().get(i))));
        }
        s.collected().forEach((k, v) -> f.put("k:" + k, seal(u, "k", v)));
        int planSeq = 0;
        for (PlanVersion p : s.plans()) {
            f.put("p:" + p.version(), planBody(seal(u, "p", p.content()), p.createdAt()));
            if (p.score() != null || p.feedback() != null) {
                f.put("e:" + p.version(), seal(u, "e", write(new PlanScore(p.score(), p.feedback()))));
            }
            planSeq = Math.max(planSeq, p.version());
        }
        f.put("planSeq", Integer.toString(planSeq));
        return f;
    }

    /** The state held by a hash's fields. */
    SessionState state(Map<String, String> f) {
        String u = f.get("userId");
        List<Ordered<Constraint>> constraints = new ArrayList<>();
        List<Ordered<String>> questions = new ArrayList<>();
        List<Ordered<Observation>> observations = new ArrayList<>();
        Map<String, String> collected = new TreeMap<>();
        f.forEach((field, value) -> {
            if (field.startsWith("c:"))
                constraints.add(ordered(u, "c", value, Constraint.class));
            else if (field.startsWith("q:"))
                questions.add(new Ordered<>(order(value), question(u, field, value)));
            else if (field.startsWith("o:"))
                observations.add(ordered(u, "o", value, Observation.class));
            else if (field.startsWith("k:"))
                collected.put(field.substring(2), open(u, "k", value));
        });
        List<PlanVersion> planList = plans(u, f);
        return new SessionState(f.get("sessionId"), f.get("userId"), Long.parseLong(f.get("version")),
                millis(f.get("createdAt")), millis(f.get("updatedAt")), SessionState.Status.valueOf(f.get("status")),
                open(u, "goal", f.get("goal")), open(u, "context", f.get("context")), sorted(constraints),
                sorted(questions), collected,
                f.containsKey("step") ? read(open(u, "step", f.get("step")), StepPointer.class) : null, planList,
                sorted(observations), open(u, "summary", f.get("summary")),
                f.containsKey("forkedFrom") ? read(f.get("forkedFrom"), ForkOrigin.class) : null);
    }

    /** The plan versions among a hash's fields ({@code p:<n>} bodies, {@code e:<n>} evaluations), oldest first. */
    List<PlanVersion> plans(Map<String, String> f) {
        return plans(null, f);
    }

    /** {@link #plans(Map)} of {@code userId}'s session, opened when sealed. */
    List<PlanVersion> plans(String userId, Map<String, String> f) {
        Map<Integer, PlanBody> plans = new TreeMap<>();
        Map<Integer, PlanScore> scores = new TreeMap<>();
        f.forEach((field, value) -> {
            if (field.startsWith("p:"))
                plans.put(Integer.parseInt(field.substring(2)), openedPlanBody(userId, value));
            else if (field.startsWith("e:"))
                scores.put(Integer.parseInt(field.substring(2)), read(open(userId, "e", value), PlanScore.class));
        });
        List<PlanVersion> planList = new ArrayList<>(plans.size());
        plans.forEach((n, body) -> {
            PlanScore score = scores.getOrDefault(n, new PlanScore(null, null));
            planList.add(new PlanVersion(n, body.content(), score.score(), score.feedback(), body.createdAt()));
        });
        return planList;
    }

    String write(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
        }
    }

    /**
     * A plan body as stored: {@code <createdAt epoch millis>|<content>}, the content as it is. Plans
     * are the bulk of a session's bytes and of a read, and this form costs no escaping either way.
     */
    static String planBody(String content, Instant createdAt) {
        return (createdAt == null ? "" : Long.toString(createdAt.toEpochMilli())) + "|" + content;
    }

    /** A stored plan body; bodies written before the plain form are JSON objects. */
    PlanBody planBody(String stored) {
        return openedPlanBody(null, stored);
    }

    /** A stored plan body of {@code userId}'s session, its content opened when sealed. */
    PlanBody openedPlanBody(String userId, String stored) {
        if (stored.startsWith("{")) {
            return read(stored, PlanBody.class);
        }
        int bar = stored.indexOf('|');
        return new PlanBody(open(userId, "p", stored.substring(bar + 1)),
                bar == 0 ? null : Instant.ofEpochMilli(Long.parseLong(stored, 0, bar, 10)));
    }

    <T> T read(String value, Class<T> type) {
        try {
            return readers.computeIfAbsent(type, json::readerFor).readValue(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt session field of type " + type.getSimpleName(), e);
        }
    }

    record PlanBody(String content, Instant createdAt) {
    }

    record PlanScore(Double score, String feedback) {
    }

    private record Ordered<T>(long[] order, T item) {
    }

    private <T> Ordered<T> ordered(String userId, String place, String value, Class<T> type) {
        int bar = value.indexOf('|');
        return new Ordered<>(order(value), read(open(userId, place, value.substring(bar + 1)), type));
    }

    /** An open question's text: its field's name, or, when it is sealed, its value after the order key. */
    private String question(String userId, String field, String value) {
        int bar = value.indexOf('|');
        return bar + 1 < value.length() ? open(userId, "q", value.substring(bar + 1)) : field.substring(2);
    }

    private static long[] order(String value) {
        String key = value.substring(0, value.indexOf('|'));
        int dot = key.indexOf('.');
        return new long[] { Long.parseLong(key.substring(0, dot)), Long.parseLong(key.substring(dot + 1)) };
    }

    private static <T> List<T> sorted(List<Ordered<T>> items) {
        return items.stream()
                .sorted(Comparator.<Ordered<T>> comparingLong(o -> o.order()[0]).thenComparingLong(o -> o.order()[1]))
                .map(Ordered::item).toList();
    }

    private static Instant millis(String value) {
        return Instant.ofEpochMilli(Long.parseLong(value));
    }

    private static void putIfSet(Map<String, String> f, String field, String value) {
        if (value != null) {
            f.put(field, value);
        }
    }
}

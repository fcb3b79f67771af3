package dev.mnemos.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Plan bodies are stored as {@code <millis>|<content>}; bodies stored as JSON by earlier versions still read. */
class StateFieldsTest {

    final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule());
    final StateFields fields = new StateFields(json);

    @Test
    void plainPlanBodiesKeepTheirContentExactly() {
        Instant at = Instant.parse("2026-12-01T10:15:30.123Z");
        for (String content : List.of("", "one line", "a|b|c", "{\"looks\":\"like json\"}", "line\nline\r\n\ttab \"q\" \\",
                "中文 😀 שלום", "|leading bar", "123|456")) {
            String stored = StateFields.planBody(content, at);
            assertThat(stored).doesNotStartWith("{");
            StateFields.PlanBody body = fields.planBody(stored);
            assertThat(body.content()).isEqualTo(content);
            assertThat(body.createdAt()).isEqualTo(at);
        }
        assertThat(fields.planBody(StateFields.planBody("no time", null))).isEqualTo(new StateFields.PlanBody("no time", null));
    }

    @Test
    void jsonPlanBodiesWrittenBeforeStillRead() throws Exception {
        Instant at = Instant.parse("2026-11-30T08:00:00Z");
        String legacy = json.writeValueAsString(new StateFields.PlanBody("step 1\nstep 2", at));
        assertThat(fields.planBody(legacy)).isEqualTo(new StateFields.PlanBody("step 1\nstep 2", at));
        assertThat(fields.plans(Map.of("p:2", legacy, "p:1", StateFields.planBody("first", at), "e:2", "{\"score\":0.5}")))
                .extracting(PlanVersion::version, PlanVersion::content, PlanVersion::score)
                .containsExactly(Tuple.tuple(1, "first", null),
                        Tuple.tuple(2, "step 1\nstep 2", 0.5));
    }

    @Test
    void instantsAreStoredAsEpochMillisAndIsoTextStillReads() {
        Instant at = Instant.parse("2026-12-01T10:15:30.123Z");
        SessionEvent event = new SessionEvent(0, SessionEvent.Type.PATCH, at, "alice", null,
                SessionPatch.builder().goal("g").build(), null, null);
        String stored = fields.write(event);
        assertThat(stored).contains("\"at\":" + at.toEpochMilli());
        assertThat(fields.read(stored, SessionEvent.class).at()).isEqualTo(at);
        String legacy = "{\"version\":0,\"type\":\"PATCH\",\"at\":\"2026-12-01T10:15:30.123Z\",\"actor\":\"alice\","
                + "\"patch\":{\"goal\":\"g\"}}";
        // a stored step leaves out its version (the entry id), its type PATCH (RedisReplayLog reads it back as PATCH)
        // and its actor (the log entry holds it, or names the session's own); one stored with it still reads
        assertThat(stored).doesNotContain("\"version\"").doesNotContain("\"type\"").doesNotContain("alice");
        assertThat(fields.read(legacy, SessionEvent.class)).usingRecursiveComparison().ignoringFields("type", "actor")
                .isEqualTo(fields.read(stored, SessionEvent.class));
        assertThat(fields.read(legacy, SessionEvent.class).actor()).isEqualTo("alice");
        assertThat(fields.write(new SessionEvent(0, SessionEvent.Type.END, at, "alice", null, null, null, null)))
                .contains("\"type\":\"END\"");
    }
}

package dev.mnemos.server.tracing;

import dev.mnemos.injection.ActingAs;
import dev.mnemos.server.support.ScriptedChatModel;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.testsupport.Tokens;
import dev.mnemos.testsupport.TripAi;
import dev.mnemos.tracing.MnemosSpans;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/** With quarkus.otel.sdk.disabled=false the step cycle and /end produce nested spans. */
@QuarkusTest
@TestProfile(TracingOn.class)
class TracingTest {

    @Inject
    InMemorySpanExporter exporter;
    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;
    @Inject
    SessionStore store;

    @BeforeEach
    void reset() {
        exporter.reset();
        model.reset();
    }

    @Test
    void stepCycleHasOneSpanPerPhaseUnderTheStepSpan() throws InterruptedException {
        model.script(request -> "traced answer");
        String user = "u-" + SessionIds.newId();
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("trace me").build()).by("test")).sessionId();

        ActingAs.user(user).call(() -> ai.chat(id, "hello"));

        Map<String, SpanData> spans = awaitSpans(id, List.of("mnemos.step", "mnemos.step.load", "mnemos.step.render",
                "mnemos.step.model", "mnemos.step.write"));
        SpanData step = spans.get("mnemos.step");
        assertThat(step.getAttributes().get(AttributeKey.stringKey("mnemos.step.name")))
                .isEqualTo("chat");
        assertThat(step.getAttributes().get(AttributeKey.longKey("mnemos.session.version")))
                .isEqualTo(2L);
        for (String phase : List.of("mnemos.step.load", "mnemos.step.render", "mnemos.step.model",
                "mnemos.step.write")) {
            SpanData span = spans.get(phase);
            assertThat(span.getTraceId()).as(phase).isEqualTo(step.getTraceId());
            assertThat(span.getParentSpanId()).as(phase).isEqualTo(step.getSpanId());
        }
    }

    @Test
    void failedModelCallMarksTheStepSpanAsAnError() throws InterruptedException {
        model.script(request -> {
            throw new IllegalStateException("model down");
        });
        String user = "u-" + SessionIds.newId();
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("fail me").build()).by("test")).sessionId();

        try {
            ActingAs.user(user).call(() -> ai.chat(id, "hello"));
        } catch (RuntimeException expected) {
            // the step fails and nothing is written
        }

        Map<String, SpanData> spans = awaitSpans(id, List.of("mnemos.step", "mnemos.step.model"));
        assertThat(spans.get("mnemos.step.model").getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(spans.get("mnemos.step").getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(spans).doesNotContainKey("mnemos.step.write");
    }

    @Test
    void endHasPromoteArchiveAndClearUnderOneSpan() throws InterruptedException {
        String user = "u-" + SessionIds.newId();
        String id = given().auth().oauth2(Tokens.user(user)).contentType("application/json")
                .body("{\"goal\":\"end me\"}").post("/v1/sessions").then().statusCode(201).extract()
                .path("sessionId");
        given().auth().oauth2(Tokens.user(user)).post("/v1/sessions/{id}/end", id).then().statusCode(200);

        Map<String, SpanData> spans = awaitSpans(id,
                List.of("mnemos.end", "mnemos.end.promote", "mnemos.end.archive", "mnemos.end.clear"));
        SpanData end = spans.get("mnemos.end");
        assertThat(spans.get("mnemos.end.promote").getParentSpanId()).isEqualTo(end.getSpanId());
        assertThat(spans.get("mnemos.end.clear").getParentSpanId()).isEqualTo(end.getSpanId());
        assertThat(spans.get("mnemos.end.archive").getParentSpanId())
                .isEqualTo(spans.get("mnemos.end.promote").getSpanId());
        // the HTTP server span is the parent: Mnemos' spans join the request's trace. It ends after the response
        // was written, so it may reach the exporter after the test's request returned: wait for it.
        SpanData request = awaitSpan(end.getParentSpanId());
        assertThat(request.getTraceId()).isEqualTo(end.getTraceId());
        assertThat(request.getKind()).isEqualTo(SpanKind.SERVER);
    }

    private SpanData awaitSpan(String spanId) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            var found = exporter.getFinishedSpanItems().stream().filter(s -> s.getSpanId().equals(spanId)).findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("span " + spanId + " never arrived");
    }

    /** Waits (bounded) for the exporter to receive the named spans of one session. */
    private Map<String, SpanData> awaitSpans(String sessionId, List<String> names) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            Map<String, SpanData> byName = exporter.getFinishedSpanItems().stream()
                    .filter(s -> sessionId.equals(s.getAttributes()
                            .get(AttributeKey.stringKey(MnemosSpans.SESSION_ID))))
                    .collect(Collectors.toMap(SpanData::getName, Function.identity(), (a, b) -> a));
            if (byName.keySet().containsAll(names)) {
                return byName;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("spans " + names + " of session " + sessionId + " never arrived; got "
                + exporter.getFinishedSpanItems().stream().map(SpanData::getName).toList());
    }
}

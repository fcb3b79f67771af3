package org.acme.trips;

import dev.mnemos.injection.IncompleteStreamException;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A {@code @SessionMemory} method whose answer is streamed ({@code Multi<String>}, also through the application's SSE
 * endpoint): the block is in the streamed call's prompt, the step is written once when the
 * stream completes, with the whole answer, off the event loop; a failed or cancelled stream writes nothing.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
class StreamedStepTest {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @Inject
    TripPlanner planner;
    @Inject
    SessionStore sessions;
    @Inject
    StepTraceStore traces;
    @Inject
    ThreadRecordingStepWriter writes;

    @TestHTTPResource("/trips")
    URI trips;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void streamedAnswerIsWrittenOnceWhenTheStreamCompletesAndReachesTheNextPrompt() throws Exception {
        String trip = UUID.randomUUID().toString();
        String id = "trip-" + trip;
        planner.suggest(id, "A weekend in Lisbon, no flights");
        assertThat(sessions.get(id).version()).isEqualTo(2);
        int before = OpenAiStub.bodies().size();

        List<String> tokens = sse(trip, "What should I do on Saturday?", Integer.MAX_VALUE);

        assertThat(String.join("", tokens)).isEqualTo(OpenAiStub.STREAMED_ANSWER);
        // the stream completes after its step was written
        assertThat(sessions.get(id).version()).isEqualTo(3);
        assertThat(sessions.get(id).collected()).containsEntry("answer.suggest", OpenAiStub.STREAMED_ANSWER);
        String streamed = Bodies.system(Bodies.since(before).get(0));
        assertThat(Bodies.since(before).get(0)).containsPattern("\"stream\"\\s*:\\s*true");
        // the first answer reaches the streamed call's prompt once: in the chat turn, the block names it
        assertThat(streamed).contains("<memory-data", "version 2", "\"answer.suggest\": (in the conversation above)");
        assertThat(Bodies.since(before).get(0)).contains(OpenAiStub.ANSWER);
        assertThat(writes.of(id)).hasSize(2).noneMatch(ThreadRecordingStepWriter.Written::eventLoop);

        planner.suggest(id, "And on Sunday?");
        assertThat(sessions.get(id).version()).isEqualTo(4);
        String next = Bodies.system(Bodies.since(before).get(1));
        assertThat(next).contains("version 3", "\"answer.suggest\": (in the conversation above)")
                .doesNotContain(OpenAiStub.ANSWER).doesNotContain("walk the Alfama");
        assertThat(Bodies.since(before).get(1)).contains("walk the Alfama at dawn ☀");
    }

    @Test
    void streamedStepsTraceHasItsTimeToFirstToken() {
        String id = freshId();
        planner.suggest(id, "Three days in Porto");
        List<String> tokens = planner.stream(id, "Where do I eat?").collect().asList().await().atMost(WAIT);

        assertThat(String.join("", tokens)).isEqualTo(OpenAiStub.STREAMED_ANSWER);
        StepTrace blocking = traces.find(id, 2).orElseThrow();
        StepTrace streamed = traces.find(id, 3).orElseThrow();
        assertThat(blocking.timings().firstTokenMicros()).isNull();
        assertThat(streamed.timings().firstTokenMicros()).isNotNull().isPositive()
                .isLessThanOrEqualTo(streamed.timings().modelMicros());
        assertThat(streamed.read().sessionVersion()).isEqualTo(2);
        assertThat(streamed.written().basedOn()).isEqualTo(2);
        assertThat(streamed.injected().block()).contains(OpenAiStub.ANSWER);
    }

    @Test
    void failedStreamWritesNothing() {
        String id = freshId();
        planner.suggest(id, "Three days in Porto");
        String message = "Where do I eat? " + OpenAiStub.FAIL + " " + UUID.randomUUID();
        List<String> received = new CopyOnWriteArrayList<>();

        assertThatThrownBy(() -> planner.stream(id, message).onItem().invoke(received::add).collect().asList().await()
                .atMost(WAIT)).isNotNull();

        assertThat(OpenAiStub.outcome(message)).isEqualTo(OpenAiStub.Outcome.BROKEN);
        assertThat(String.join("", received)).isEqualTo(OpenAiStub.TOKENS.get(0) + OpenAiStub.TOKENS.get(1));
        assertThat(sessions.get(id).version()).isEqualTo(2);
        assertThat(traces.find(id, 3)).isEmpty();
    }

    @Test
    void streamCutOffByAMalformedChunkWritesNothingAndFails() {
        assertAnIncompleteStreamWritesNothing(OpenAiStub.MALFORMED);
    }

    @Test
    void streamWithoutAFinishReasonWritesNothingAndFails() {
        assertAnIncompleteStreamWritesNothing(OpenAiStub.UNFINISHED);
    }

    private void assertAnIncompleteStreamWritesNothing(String mode) {
        String id = freshId();
        planner.suggest(id, "Three days in Porto");
        String message = "Where do I eat? " + mode + " " + UUID.randomUUID();
        List<String> received = new CopyOnWriteArrayList<>();

        assertThatThrownBy(() -> planner.stream(id, message).onItem().invoke(received::add).collect().asList().await()
                .atMost(WAIT)).isInstanceOf(IncompleteStreamException.class).hasMessageContaining(id);

        assertThat(OpenAiStub.outcome(message)).isEqualTo(OpenAiStub.Outcome.COMPLETED);
        assertThat(String.join("", received)).startsWith(OpenAiStub.TOKENS.get(0));
        assertThat(sessions.get(id).version()).isEqualTo(2);
        assertThat(sessions.get(id).collected()).doesNotContainValue(OpenAiStub.TOKENS.get(0) + OpenAiStub.TOKENS.get(1));
        assertThat(traces.find(id, 3)).isEmpty();
    }

    @Test
    void streamCancelledBySubscriberWritesNothing() throws Exception {
        String id = freshId();
        planner.suggest(id, "Three days in Porto");
        String message = "Tell me everything " + OpenAiStub.SLOW + " " + UUID.randomUUID();

        List<String> first = planner.stream(id, message).select().first(1).collect().asList().await().atMost(WAIT);

        assertThat(first).hasSize(1);
        assertNothingWrittenWhenTheStubIsDone(id, message);
    }

    @Test
    void streamWhoseHttpClientDisconnectsWritesNothing() throws Exception {
        String trip = UUID.randomUUID().toString();
        String id = "trip-" + trip;
        planner.suggest(id, "Three days in Porto");
        String message = "Tell me everything " + OpenAiStub.SLOW + " " + UUID.randomUUID();

        assertThat(sse(trip, message, 1)).hasSize(1);

        assertNothingWrittenWhenTheStubIsDone(id, message);
    }

    /** Waits until the stub ended the slow stream (went on to its end, or saw the client go), then a little more. */
    private void assertNothingWrittenWhenTheStubIsDone(String id, String message) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (OpenAiStub.outcome(message) == null && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(OpenAiStub.outcome(message)).isNotNull();
        // a write that wrongly followed the stream's end would come within a few milliseconds
        Thread.sleep(500);
        assertThat(sessions.get(id).version()).isEqualTo(2);
        assertThat(traces.find(id, 3)).isEmpty();
    }

    /** The tokens of the SSE answer to {@code question} about {@code trip}, reading at most {@code max} of them. */
    private List<String> sse(String trip, String question, int max) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(trips + "/" + trip + "/questions/stream"))
                .header("Content-Type", "text/plain").header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(question)).timeout(WAIT).build();
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        List<String> tokens = new ArrayList<>();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null && tokens.size() < max; line = lines.readLine()) {
                if (line.startsWith("data:")) {
                    String data = line.substring(5);
                    tokens.add(data.startsWith(" ") ? data.substring(1) : data);
                }
            }
        }
        return tokens;
    }

    private static String freshId() {
        return "trip-" + UUID.randomUUID();
    }
}

package org.acme.trips;

import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.injection.ToolRun;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @SessionMemory} method of an AI service with a tool: each tool the model call ran is in the step's trace
 * (arguments, result or error, duration) and reaches the step's writer.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
class ToolTraceTest {

    @Inject
    TripWeather weather;
    @Inject
    TripPlanner planner;
    @Inject
    SessionStore sessions;
    @Inject
    StepTraceStore traces;

    @Test
    void toolRunIsInTheStepsTraceWithArgumentsResultAndDuration() {
        String id = freshId();

        String answer = weather.advise(id, "Where is it sunny this weekend? [city:Porto]");

        assertThat(answer).isEqualTo(OpenAiStub.TOOL_ANSWER);
        StepTrace trace = traces.find(id, 2).orElseThrow();
        assertThat(trace.tools()).hasSize(1);
        ToolRun run = trace.tools().get(0);
        assertThat(run.tool()).isEqualTo(OpenAiStub.TOOL);
        assertThat(run.arguments()).contains("\"city\"", "Porto");
        assertThat(run.result()).isEqualTo("\"Sunny and 24°C in Porto\"");
        assertThat(run.error()).isNull();
        assertThat(run.durationMicros()).isPositive();
    }

    @Test
    void failedToolIsRecordedWithItsErrorBesideTheOthersInOrder() {
        String id = freshId();

        weather.advise(id, "Compare [city:" + WeatherTools.NOWHERE + "] and [city:Faro]");

        StepTrace trace = traces.find(id, 2).orElseThrow();
        assertThat(trace.tools()).extracting(ToolRun::tool).containsExactly(OpenAiStub.TOOL, OpenAiStub.TOOL);
        ToolRun failed = trace.tools().get(0);
        assertThat(failed.arguments()).contains(WeatherTools.NOWHERE);
        assertThat(failed.result()).isNull();
        assertThat(failed.error()).contains("no forecast for " + WeatherTools.NOWHERE);
        assertThat(trace.tools().get(1).result()).isEqualTo("\"Sunny and 24°C in Faro\"");
    }

    @Test
    void stepWriterSeesTheToolRuns() {
        String id = freshId();

        weather.advise(id, "Compare [city:" + WeatherTools.NOWHERE + "] and [city:Faro]");

        assertThat(sessions.get(id).collected()).containsEntry("tools.weather", "forecast (failed), forecast")
                .containsEntry("answer.weather", OpenAiStub.TOOL_ANSWER);
    }

    @Test
    void stepWithoutToolsHasAnEmptyToolList() {
        String id = freshId();

        planner.suggest(id, "A weekend in Lisbon");

        assertThat(traces.find(id, 2).orElseThrow().tools()).isEmpty();
    }

    private static String freshId() {
        return "trip-" + UUID.randomUUID();
    }
}

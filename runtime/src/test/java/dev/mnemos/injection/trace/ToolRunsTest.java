package dev.mnemos.injection.trace;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.mnemos.injection.ToolRun;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which tool runs a step's recording keeps: its own call's, known by memory id or, for an agent, by interface. */
class ToolRunsTest {

    private final ToolRuns tools = new ToolRuns();

    interface Agent {
    }

    interface OtherService {
    }

    @Test
    void aPlainStepKeepsTheRunsOfCallsWithItsSessionAsMemoryId() {
        try (ToolRuns.Recording recording = tools.record("s-1")) {
            run("own", context("s-1", OtherService.class));
            run("foreign", context("s-2", OtherService.class));

            assertThat(recording.runs()).extracting(ToolRun::tool).containsExactly("own");
        }
    }

    @Test
    void anAgentStepKeepsTheRunsOfItsInterfaceWhateverTheirMemoryId() {
        try (ToolRuns.Recording recording = tools.record("s-1", Agent.class)) {
            run("agent", context("default#" + Agent.class.getName(), Agent.class));
            run("nested", context("s-1", OtherService.class));

            assertThat(recording.runs()).extracting(ToolRun::tool).containsExactly("agent");
            assertThat(recording.runs().get(0).result()).isEqualTo("done agent");
        }
    }

    @Test
    void nothingIsKeptOnceTheRecordingIsClosed() {
        ToolRuns.Recording recording = tools.record("s-1", Agent.class);
        recording.close();

        run("late", context("s-1", Agent.class));

        assertThat(recording.runs()).isEmpty();
    }

    private void run(String tool, InvocationContext context) {
        ToolExecutionRequest request = ToolExecutionRequest.builder().name(tool).arguments("{}").build();
        tools.wrap(request, context, (r, c) -> ToolExecutionResult.builder().resultText("done " + r.name()).build(), null);
    }

    private static InvocationContext context(Object memoryId, Class<?> service) {
        return InvocationContext.builder().chatMemoryId(memoryId).interfaceName(service.getName()).build();
    }
}

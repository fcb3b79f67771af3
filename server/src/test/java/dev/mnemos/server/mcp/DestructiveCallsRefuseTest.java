package dev.mnemos.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkiverse.mcp.server.InitialRequest;
import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.McpLog;
import io.quarkiverse.mcp.server.TextContent;
import io.quarkiverse.mcp.server.ToolResponse;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code mnemos.mcp.beyond-budget=refuse}: a destructive call beyond the session's budget is refused with
 * {@code confirmation_required} and nothing is held for the user (the default, {@code pending}, is
 * McpPendingRequestsTest's). Without the application: the refusal needs neither a store nor a token.
 */
class DestructiveCallsRefuseTest {

    private static McpLimits limits(McpLimits.BeyondBudget mode) {
        return new McpLimits() {
            @Override
            public int maxBatchSize() {
                return 10;
            }

            @Override
            public int destructiveCallsPerSession() {
                return 1;
            }

            @Override
            public BeyondBudget beyondBudget() {
                return mode;
            }
        };
    }

    private static McpConnection connection(String id) {
        return new McpConnection() {
            @Override
            public String id() {
                return id;
            }

            @Override
            public Status status() {
                return Status.IN_OPERATION;
            }

            @Override
            public InitialRequest initialRequest() {
                return null;
            }

            @Override
            public McpLog.LogLevel logLevel() {
                return McpLog.LogLevel.INFO;
            }

            @Override
            public String serverName() {
                return "mnemos";
            }
        };
    }

    @Test
    void beyondTheBudgetACallIsRefusedAndNothingIsHeld() throws Exception {
        DestructiveCalls calls = new DestructiveCalls(limits(McpLimits.BeyondBudget.REFUSE),
                new McpCalls(new ObjectMapper(), null), null);
        McpConnection session = connection("refuse-" + System.nanoTime());
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger held = new AtomicInteger();
        DestructiveCalls.Hold hold = caller -> {
            held.incrementAndGet();
            throw new AssertionError("held in refuse mode");
        };

        ToolResponse first = calls.run(session, "forget_fact", null, () -> {
            ran.incrementAndGet();
            return ToolResponse.success(new TextContent("{}"));
        }, hold);
        ToolResponse second = calls.run(session, "forget_fact", null, () -> {
            ran.incrementAndGet();
            return ToolResponse.success(new TextContent("{}"));
        }, hold);

        assertThat(first.isError()).isFalse();
        assertThat(second.isError()).isTrue();
        JsonNode body = new ObjectMapper().readTree(((TextContent) second.content().get(0)).text());
        System.out.printf("refuse mode: %d call(s) ran, %d held, second answered %s%n", ran.get(), held.get(),
                body.path("error").asText());
        assertThat(body.path("error").asText()).isEqualTo("confirmation_required");
        assertThat(body.path("tool").asText()).isEqualTo("forget_fact");
        assertThat(body.has("pendingRequestId")).isFalse();
        assertThat(ran.get()).isEqualTo(1);
        assertThat(held.get()).isZero();
        // another MCP session has a budget of its own
        assertThat(calls.run(connection("other-" + System.nanoTime()), "forget_fact", null,
                () -> ToolResponse.success(new TextContent("{}")), hold).isError()).isFalse();
    }
}

package dev.mnemos.server.mcp;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Limits of the MCP endpoint (docs/mcp.md "Limits"). */
@ConfigMapping(prefix = "mnemos.mcp")
public interface McpLimits {

    /** Most JSON-RPC messages in one batch; a larger batch is refused whole (-32600, HTTP 400). */
    @WithDefault("10")
    int maxBatchSize();

    /** Destructive tool calls (forget, undo) one MCP session may make; beyond them the user acts outside the agent. */
    @WithDefault("1")
    int destructiveCallsPerSession();

    /** What a destructive call beyond {@link #destructiveCallsPerSession()} does. */
    @WithDefault("pending")
    BeyondBudget beyondBudget();

    /** What a destructive call beyond the session's budget does. */
    enum BeyondBudget {
        /** Held for the user, who confirms or rejects it over the REST API ({@code /v1/profile/pending-requests}). */
        PENDING,
        /** Refused ({@code confirmation_required}); the user does it themselves over the REST API. */
        REFUSE
    }
}

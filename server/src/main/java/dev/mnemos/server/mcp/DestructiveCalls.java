package dev.mnemos.server.mcp;

import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The budget of destructive tool calls (a forget, an undo: final for the user's data) each MCP session has:
 * {@link McpLimits#destructiveCallsPerSession()}. A call beyond it changes nothing and answers the tool error
 * {@code confirmation_required}: the user does it themselves, outside the agent, over the REST API (docs/mcp.md
 * "Destructive tools"), so an agent steered by a poisoned input cannot empty a profile. A call that answers an error
 * gives its share back, and a repeat of a call already counted (the same idempotency key, the same task's undo) costs
 * nothing more. The budget lives on the pod that holds the MCP session, as the session itself.
 */
@ApplicationScoped
class DestructiveCalls {

    private static final Logger LOG = Logger.getLogger(DestructiveCalls.class);

    /** What one MCP session has spent: the calls counted and their keys. */
    private static final class Spent {
        int count;
        final Set<String> keys = new HashSet<>();
    }

    private final McpLimits limits;
    private final McpCalls calls;
    private final ConnectionManager connections;
    private final Map<String, Spent> sessions = new ConcurrentHashMap<>();
    /** Size of {@link #sessions} after the last sweep of ended sessions. */
    private final AtomicInteger swept = new AtomicInteger();

    DestructiveCalls(McpLimits limits, McpCalls calls, ConnectionManager connections) {
        this.limits = limits;
        this.calls = calls;
        this.connections = connections;
    }

    /**
     * Runs {@code call} when the session's budget allows it.
     *
     * @param key what makes a repeat the same call (an idempotency key, the undone task), or null when none does
     */
    ToolResponse run(McpConnection connection, String tool, String key, Supplier<ToolResponse> call) {
        Spent spent = spent(connection.id());
        String charge = key == null ? null : tool + " " + key;
        boolean charged = false;
        synchronized (spent) {
            if (charge == null || !spent.keys.contains(charge)) {
                if (spent.count >= limits.destructiveCallsPerSession()) {
                    LOG.infof("MCP: %s refused, the session's destructive calls are spent", tool);
                    return refused(tool);
                }
                spent.count++;
                if (charge != null) {
                    spent.keys.add(charge);
                }
                charged = true;
            }
        }
        ToolResponse response = call.get();
        if (charged && response.isError()) {
            synchronized (spent) {
                spent.count--;
                if (charge != null) {
                    spent.keys.remove(charge);
                }
            }
        }
        return response;
    }

    private ToolResponse refused(String tool) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", "confirmation_required");
        body.put("message", tool + " is destructive and this MCP session has made its " + limits.destructiveCallsPerSession()
                + " destructive call(s) (mnemos.mcp.destructive-calls-per-session). Nothing was changed. Tell the user "
                + "what you meant to do and why; only the user can do it now, outside this conversation.");
        body.put("tool", tool);
        body.put("destructiveCallsPerSession", limits.destructiveCallsPerSession());
        return ToolResponse.error(calls.json(body));
    }

    private Spent spent(String session) {
        Spent spent = sessions.computeIfAbsent(session, s -> new Spent());
        int size = sessions.size();
        int last = swept.get();
        if (size > 2 * last + 1024 && swept.compareAndSet(last, size)) {
            // sessions the server ended leave here in bulk, amortised over new ones
            sessions.keySet().removeIf(id -> !connections.has(id));
            swept.set(sessions.size());
        }
        return spent;
    }
}

package dev.mnemos.server.mcp;

import dev.mnemos.app.Actor;
import dev.mnemos.app.PendingRequest;
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
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The budget of destructive tool calls (a forget, an undo: final for the user's data) each MCP session has:
 * {@link McpLimits#destructiveCallsPerSession()}. A call beyond it changes nothing: it is held for the user
 * ({@link dev.mnemos.app.PendingRequests}, the tool error {@code pending_confirmation} with the request's id), who
 * confirms or rejects it outside the agent, or, with {@link McpLimits.BeyondBudget#REFUSE}, it answers the tool error
 * {@code confirmation_required} and the user does it themselves over the REST API (docs/mcp.md "Destructive tools"),
 * so an agent steered by a poisoned input cannot empty a profile. A call that answers an error
 * gives its share back, and a repeat of a call already counted (the same idempotency key, the same task's undo) costs
 * nothing more. The budget lives on the pod that holds the MCP session, as the session itself.
 */
@ApplicationScoped
class DestructiveCalls {

    private static final Logger LOG = Logger.getLogger(DestructiveCalls.class);

    /** Records a call beyond the budget for the user, checked as the call itself would be. */
    interface Hold {
        PendingRequest hold(Actor caller);
    }

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
    ToolResponse run(McpConnection connection, String tool, String key, Supplier<ToolResponse> call, Hold hold) {
        Spent spent = spent(connection.id());
        String charge = key == null ? null : tool + " " + key;
        boolean charged = false;
        synchronized (spent) {
            if (charge == null || !spent.keys.contains(charge)) {
                if (spent.count >= limits.destructiveCallsPerSession()) {
                    return beyondBudget(tool, hold);
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

    private ToolResponse beyondBudget(String tool, Hold hold) {
        if (limits.beyondBudget() == McpLimits.BeyondBudget.REFUSE) {
            LOG.infof("MCP: %s refused, the session's destructive calls are spent", tool);
            return refused(tool);
        }
        AtomicReference<PendingRequest> held = new AtomicReference<>();
        ToolResponse answer = calls.run(tool, caller -> {
            held.set(hold.hold(caller));
            return Map.of();
        });
        if (answer.isError()) {
            return answer;
        }
        LOG.infof("MCP: %s held for the user, the session's destructive calls are spent", tool);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", "pending_confirmation");
        body.put("message", tool + " is destructive and this MCP session has made its " + limits.destructiveCallsPerSession()
                + " destructive call(s) (mnemos.mcp.destructive-calls-per-session). Nothing was changed: the call is "
                + "pending the user's confirmation as request " + held.get().id() + ", which the user confirms or rejects "
                + "outside this conversation. Tell the user what you asked for and why; do not call it again.");
        body.put("tool", tool);
        body.put("pendingRequestId", held.get().id());
        body.put("destructiveCallsPerSession", limits.destructiveCallsPerSession());
        return ToolResponse.error(calls.json(body));
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

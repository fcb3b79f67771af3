package dev.mnemos.server.mcp;

import dev.mnemos.app.PendingRequests;
import dev.mnemos.app.PromotionUndoService;
import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolGuardrails;
import io.quarkiverse.mcp.server.ToolResponse;

/**
 * Undo of what one ended task taught the profile, as an MCP tool: the same {@link PromotionUndoService} call as
 * {@code POST /v1/sessions/{id}/promotion/undo}, always for the caller's own sessions. It spends the session's
 * {@link DestructiveCalls} budget (once per undone task: undoing the same task again is free).
 */
public class UndoTools {

    private final McpCalls calls;
    private final PromotionUndoService undo;
    private final DestructiveCalls destructive;
    private final PendingRequests held;

    UndoTools(McpCalls calls, PromotionUndoService undo, DestructiveCalls destructive, PendingRequests held) {
        this.calls = calls;
        this.undo = undo;
        this.destructive = destructive;
        this.held = held;
    }

    @Tool(name = "undo_task_promotion", description = "Undoes what one ended task taught the long-term profile, when "
            + "the USER says it learned something wrong (a misread statement, a manipulated task): the facts its "
            + "end_task promoted are removed, the facts it replaced come back, its pending candidates are dropped, "
            + "every change audited. A fact the user forgot stays forgotten. If a later change touched the same facts "
            + "the call fails with error \"conflict\" naming them; ask the user, and only then call again with "
            + "force=true. Calling it again for the same task changes nothing. A session may undo only a few tasks (beyond "
            + "them error \"pending_confirmation\": the user confirms it outside this conversation; tell them). Returns the changes and the profile "
            + "after them.", annotations = @Tool.Annotations(title = "Undo a task's promotion", readOnlyHint = false, destructiveHint = true, idempotentHint = true, openWorldHint = false), inputSchema = @Tool.InputSchema(generator = StrictInputSchema.class))
    @ToolGuardrails(input = StrictArguments.class)
    ToolResponse undoPromotion(
            @ToolArg(description = "The ended task's session id, as end_task or list_tasks returned it.") String sessionId,
            @ToolArg(description = "true to undo even though later changes touched the same facts (the call failed with "
                    + "error \"conflict\" before): the later changes stay. Only when the user agreed.", required = false) Boolean force,
            McpConnection connection) {
        return destructive.run(connection, "undo_task_promotion", sessionId,
                () -> calls.run("undo_task_promotion", caller -> undo.undo(caller, sessionId, Boolean.TRUE.equals(force))),
                caller -> held.holdUndo(caller, sessionId, Boolean.TRUE.equals(force)));
    }
}

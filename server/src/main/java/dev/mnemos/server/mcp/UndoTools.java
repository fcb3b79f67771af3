package dev.mnemos.server.mcp;

import dev.mnemos.archive.EndedSessions;
import dev.mnemos.promotion.PromotionUndo;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionNotFoundException;
import io.quarkiverse.mcp.server.RawMessage;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolResponse;

/**
 * Undo of what one ended task taught the profile, as an MCP tool: the same call as
 * {@code POST /v1/sessions/{id}/promotion/undo}, always for the caller's own sessions.
 */
public class UndoTools {

    private final McpCalls calls;
    private final PromotionUndo undo;
    private final EndedSessions archive;

    UndoTools(McpCalls calls, PromotionUndo undo, EndedSessions archive) {
        this.calls = calls;
        this.undo = undo;
        this.archive = archive;
    }

    @Tool(name = "undo_task_promotion", description = "Undoes what one ended task taught the long-term profile, when "
            + "the USER says it learned something wrong (a misread statement, a manipulated task): the facts its "
            + "end_task promoted are removed, the facts it replaced come back, its pending candidates are dropped, "
            + "every change audited. A fact the user forgot stays forgotten. If a later change touched the same facts "
            + "the call fails with error \"conflict\" naming them; ask the user, and only then call again with "
            + "force=true. Calling it again for the same task changes nothing. Returns the changes and the profile "
            + "after them.", annotations = @Tool.Annotations(title = "Undo a task's promotion", readOnlyHint = false, destructiveHint = true, idempotentHint = true, openWorldHint = false), inputSchema = @Tool.InputSchema(generator = ToolSchemas.class))
    ToolResponse undoPromotion(RawMessage call) {
        return calls.run("undo_task_promotion", call, (user, args) -> {
            String session = args.string("sessionId");
            SessionIds.require("sessionId", session);
            if (!archive.owner(session).filter(user::equals).isPresent()) {
                throw new SessionNotFoundException(session);
            }
            return undo.undo(user, session, user, args.flag("force"));
        });
    }
}

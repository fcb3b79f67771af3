package dev.mnemos.rest;

import dev.mnemos.app.Actor;
import dev.mnemos.app.PromotionUndoService;
import dev.mnemos.promotion.UndoReport;
import dev.mnemos.session.SessionIds;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code POST /v1/sessions/{id}/promotion/undo}: reverts every profile change the session's end made, as one audited
 * transaction (docs/http-api.md, "Undo a session's promotion"). Served for {@code /v1/users/{userId}/sessions/…} as
 * well ({@link UserPathRewrite}); another user's session answers 404, as a missing one does.
 */
@Path("/v1")
@Authenticated
@APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
public class PromotionUndoResource {

    private final PromotionUndoService undo;
    private final Caller caller;

    public PromotionUndoResource(PromotionUndoService undo, Caller caller) {
        this.undo = undo;
        this.caller = caller;
    }

    @Operation(summary = "Undo a session's promotion", description = "Reverts every profile change the session's end made: the facts it promoted are retracted, the facts it superseded are restored with their validity, the evidence it added is put back and the pending candidates it created are dropped, in one audited transaction under the user's profile lock. A fact the user forgot stays forgotten. Undoing again answers the first undo (`repeated: true`) and writes nothing. When a later change touched a fact at stake the undo answers 409 naming the facts and writes nothing; `force=true` then reverts what can still be reverted and leaves the later changes (`kept` says what and why).")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = "No such ended session for this caller (404 while the session is live, and for another user's session).")
    @APIResponse(responseCode = "409", description = "Conflict: later changes touched facts the session's end changed (`conflicts` names each fact and the change); nothing was written. Retry with `force=true` to undo the rest.")
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN)
    @APIResponse(responseCode = "200", description = "What the undo wrote, what it left alone, and the profile after it.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = UndoReport.class)))
    @POST
    @Path("/sessions/{id}/promotion/undo")
    public UndoReport undo(@PathParam("id") String id, @QueryParam("force") String force) {
        SessionIds.require("sessionId", id);
        boolean forced = flag("force", force);
        return undo.undo(new Actor(caller.sessionUser(), caller.userId()), id, forced);
    }

    /** A boolean query parameter: absent is false. */
    static boolean flag(String name, String value) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw new InvalidRequestException(name, "true or false");
    }
}

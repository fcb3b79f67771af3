package dev.mnemos.rest;

import dev.mnemos.app.Actor;
import dev.mnemos.app.SessionEnd;
import dev.mnemos.app.SessionService;
import dev.mnemos.promotion.PromotionReport;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code POST /v1/sessions/{id}/end}: promote, archive, clear — answers the promotion report.
 * Ending an ended session answers the same report again. 503 when Postgres is down (nothing cleared). With session
 * memory only, the session's keys are removed and the report's {@code notice} says no profile is configured.
 */
@Path("/v1")
@Authenticated
@APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
public class SessionEndResource {

    private final SessionService sessions;
    private final Caller caller;
    private final SessionEnd ending;

    public SessionEndResource(SessionService sessions, Caller caller, SessionEnd ending) {
        this.sessions = sessions;
        this.caller = caller;
        this.ending = ending;
    }

    @Operation(summary = "End a session", description = "Promotes the session's observations to the profile (PROMOTE, PENDING or REJECT each), archives the session and clears it from Redis; answers the promotion report. Ending an ended session answers the same report again. If Postgres is down it answers 503 and keeps the session untouched.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.SESSION_NOT_FOUND)
    @APIResponse(responseCode = "503", description = ApiDocs.END_DOWN)
    @APIResponse(responseCode = "200", description = "The promotion report: each observation's decision (PROMOTE, PENDING, REJECT).", content = @Content(mediaType = "application/json", schema = @Schema(implementation = PromotionReport.class)))
    @POST
    @Path("/sessions/{id}/end")
    public PromotionReport end(@PathParam("id") String id) {
        Actor actor = new Actor(caller.sessionUser(), caller.userId());
        return ending.counted(() -> sessions.end(actor, id));
    }
}

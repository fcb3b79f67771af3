package dev.mnemos.rest;

import dev.mnemos.promotion.PromotionMeters;
import dev.mnemos.promotion.PromotionReport;
import dev.mnemos.promotion.PromotionService;
import dev.mnemos.session.SessionHistory;
import dev.mnemos.session.SessionIds;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code POST /v1/sessions/{id}/end}: promote, archive, clear — answers the promotion report.
 * Ending an ended session answers the same report again. 503 when Postgres is down (nothing cleared).
 */
@Path("/v1")
@Authenticated
public class SessionEndResource {

    private final PromotionService promotion;
    private final SessionHistory history;
    private final Caller caller;
    private final PromotionMeters meters;

    public SessionEndResource(PromotionService promotion, SessionHistory history, Caller caller,
            PromotionMeters meters) {
        this.meters = meters;
        this.promotion = promotion;
        this.history = history;
        this.caller = caller;
    }

    @Operation(summary = "End a session", description = "Promotes the session's observations to the profile (PROMOTE, PENDING or REJECT each), archives the session and clears it from Redis; answers the promotion report. Ending an ended session answers the same report again. If Postgres is down it answers 503 and keeps the session untouched.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = ApiDocs.SESSION_NOT_FOUND, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.END_DOWN, headers = @Header(name = "Retry-After", description = "Seconds to wait before retrying", schema = @Schema(type = SchemaType.INTEGER)), content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The promotion report: each observation's decision (PROMOTE, PENDING, REJECT).", content = @Content(mediaType = "application/json", schema = @Schema(implementation = PromotionReport.class)))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @POST
    @Path("/sessions/{id}/end")
    public PromotionReport end(@PathParam("id") String id) {
        SessionIds.require("sessionId", id);
        caller.requireSession(id, history.owner(id));
        return meters.sessionEnd(() -> promotion.end(id, caller.userId()));
    }
}

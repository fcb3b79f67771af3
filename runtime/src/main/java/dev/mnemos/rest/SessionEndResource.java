package dev.mnemos.rest;

import dev.mnemos.promotion.PromotionReport;
import dev.mnemos.promotion.PromotionService;
import dev.mnemos.session.SessionHistory;
import dev.mnemos.session.SessionIds;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

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

    public SessionEndResource(PromotionService promotion, SessionHistory history, Caller caller) {
        this.promotion = promotion;
        this.history = history;
        this.caller = caller;
    }

    @POST
    @Path("/sessions/{id}/end")
    public PromotionReport end(@PathParam("id") String id) {
        SessionIds.require("sessionId", id);
        caller.requireAccess(history.owner(id));
        return promotion.end(id, caller.userId());
    }
}

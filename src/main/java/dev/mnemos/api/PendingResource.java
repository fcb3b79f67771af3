package dev.mnemos.api;

import dev.mnemos.promotion.PendingCandidate;
import dev.mnemos.promotion.PendingCandidates;
import dev.mnemos.promotion.PendingDecision;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import java.util.List;

/** The caller's promotion candidates awaiting confirmation. Another user's candidate answers 404. */
@Path("/v1")
@Authenticated
public class PendingResource {

    private final PendingCandidates pending;
    private final Caller caller;

    public PendingResource(PendingCandidates pending, Caller caller) {
        this.pending = pending;
        this.caller = caller;
    }

    @GET
    @Path("/profile/pending")
    public List<PendingCandidate> list() {
        return pending.list(caller.userId());
    }

    @POST
    @Path("/profile/pending/{id}/confirm")
    public PendingDecision confirm(@PathParam("id") long id) {
        return pending.confirm(caller.userId(), id, caller.userId());
    }

    @POST
    @Path("/profile/pending/{id}/reject")
    public PendingDecision reject(@PathParam("id") long id) {
        return pending.reject(caller.userId(), id, caller.userId());
    }
}

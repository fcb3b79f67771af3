package dev.mnemos.rest;

import dev.mnemos.profile.ProfileImporter;
import dev.mnemos.profile.ProfileService;
import dev.mnemos.profile.WriteResult;
import dev.mnemos.promotion.PendingCandidate;
import dev.mnemos.promotion.PendingCandidates;
import dev.mnemos.promotion.PendingDecision;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * The profile endpoints for one user, acted on by {@code actor} (the user, or a service acting for
 * them). Served under {@code /v1/profile} and {@code /v1/users/{userId}/profile} by {@link ProfileResource}.
 */
public class ProfileOperations {

    private final String user;
    private final String actor;
    private final ProfileService profiles;
    private final ProfileImporter importer;
    private final PendingCandidates pending;

    ProfileOperations(String user, String actor, ProfileService profiles, ProfileImporter importer,
                      PendingCandidates pending) {
        this.user = user;
        this.actor = actor;
        this.profiles = profiles;
        this.importer = importer;
        this.pending = pending;
    }

    @GET
    public ProfileResponse profile() {
        return new ProfileResponse(user, profiles.activeFacts(user));
    }

    @POST
    @Path("/facts")
    public Response add(FactRequest request) {
        WriteResult result = profiles.add(user, actor, request == null ? null : request.toFact());
        return Response.status(Response.Status.CREATED).entity(result).build();
    }

    @PUT
    @Path("/facts/{id}")
    public WriteResult correct(@PathParam("id") long id, FactRequest request) {
        return profiles.correct(user, actor, id, request == null ? null : request.toFact());
    }

    @DELETE
    @Path("/facts/{id}")
    public WriteResult forget(@PathParam("id") long id) {
        return profiles.forget(user, actor, id);
    }

    @POST
    @Path("/instruct")
    public WriteResult instruct(InstructRequest request) {
        return profiles.instruct(user, actor, request == null ? null : request.instruction());
    }

    @POST
    @Path("/import")
    public WriteResult importText(ImportRequest request) {
        return importer.importText(user, actor, request == null ? null : request.text());
    }

    @GET
    @Path("/history")
    public HistoryResponse history() {
        return new HistoryResponse(user, profiles.history(user));
    }

    @GET
    @Path("/pending")
    public List<PendingCandidate> pending() {
        return pending.list(user);
    }

    @POST
    @Path("/pending/{id}/confirm")
    public PendingDecision confirm(@PathParam("id") long id) {
        return pending.confirm(user, id, actor);
    }

    @POST
    @Path("/pending/{id}/reject")
    public PendingDecision reject(@PathParam("id") long id) {
        return pending.reject(user, id, actor);
    }
}

package dev.mnemos.api;

import dev.mnemos.profile.ProfileImporter;
import dev.mnemos.profile.ProfileService;
import dev.mnemos.profile.WriteResult;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;

/** The caller's long-term profile (DESIGN.md section 8). Another user's facts answer 404. */
@Path("/v1")
@Authenticated
public class ProfileResource {

    private final ProfileService profiles;
    private final ProfileImporter importer;
    private final Caller caller;

    public ProfileResource(ProfileService profiles, ProfileImporter importer, Caller caller) {
        this.profiles = profiles;
        this.importer = importer;
        this.caller = caller;
    }

    @GET
    @Path("/profile")
    public ProfileResponse profile() {
        return new ProfileResponse(caller.userId(), profiles.activeFacts(caller.userId()));
    }

    @GET
    @Path("/users/{userId}/profile")
    public ProfileResponse profileOf(@PathParam("userId") String userId) {
        String user = caller.actFor(userId);
        return new ProfileResponse(user, profiles.activeFacts(user));
    }

    @POST
    @Path("/profile/facts")
    public Response add(FactRequest request) {
        WriteResult result = profiles.add(caller.userId(), caller.userId(), request == null ? null : request.toFact());
        return Response.status(Response.Status.CREATED).entity(result).build();
    }

    @PUT
    @Path("/profile/facts/{id}")
    public WriteResult correct(@PathParam("id") long id, FactRequest request) {
        return profiles.correct(caller.userId(), caller.userId(), id, request == null ? null : request.toFact());
    }

    @DELETE
    @Path("/profile/facts/{id}")
    public WriteResult forget(@PathParam("id") long id) {
        return profiles.forget(caller.userId(), caller.userId(), id);
    }

    @POST
    @Path("/profile/instruct")
    public WriteResult instruct(InstructRequest request) {
        return profiles.instruct(caller.userId(), caller.userId(), request == null ? null : request.instruction());
    }

    @POST
    @Path("/profile/import")
    public WriteResult importText(ImportRequest request) {
        return importer.importText(caller.userId(), caller.userId(), request == null ? null : request.text());
    }

    @GET
    @Path("/profile/history")
    public HistoryResponse history() {
        return new HistoryResponse(caller.userId(), profiles.history(caller.userId()));
    }
}

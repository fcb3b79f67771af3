package dev.mnemos.rest;

import dev.mnemos.app.Actor;
import dev.mnemos.app.PendingRequests;
import dev.mnemos.app.UserProfileService;
import dev.mnemos.profile.ProfileMeters;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/**
 * The long-term profile (docs/http-api.md): {@code /v1/profile/…} for the caller, and
 * {@code /v1/users/{userId}/profile/…} for a {@code service} token acting for that user (the audit
 * trail names the service as the actor). Another user's facts and candidates answer 404. The destructive calls
 * an agent left for the user ({@code /v1/profile/pending-requests}) are the caller's own only.
 */
@Path("/v1")
@Authenticated
public class ProfileResource {

    private final UserProfileService profiles;
    private final Caller caller;
    private final ProfileMeters meters;
    private final RestConfig config;
    private final PendingRequests requests;

    public ProfileResource(UserProfileService profiles, Caller caller, ProfileMeters meters, RestConfig config,
            PendingRequests requests) {
        this.profiles = profiles;
        this.requests = requests;
        this.caller = caller;
        this.meters = meters;
        this.config = config;
    }

    @Path("/profile")
    public ProfileOperations mine() {
        return new ProfileOperations(Actor.self(caller.userId()), profiles, meters, config);
    }

    @Path("/profile/pending-requests")
    public PendingRequestOperations pendingRequests() {
        return new PendingRequestOperations(Actor.self(caller.userId()), requests, meters, config);
    }

    @Path("/users/{userId}/profile")
    public ProfileOperations of(@PathParam("userId") String userId) {
        return new ProfileOperations(new Actor(caller.actFor(userId), caller.userId()), profiles, meters, config);
    }
}

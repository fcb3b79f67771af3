package dev.mnemos.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.profile.ProfileImporter;
import dev.mnemos.profile.ProfileMeters;
import dev.mnemos.profile.ProfileService;
import dev.mnemos.profile.ProfileTimeline;
import dev.mnemos.promotion.PendingCandidates;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/**
 * The long-term profile (docs/http-api.md): {@code /v1/profile/…} for the caller, and
 * {@code /v1/users/{userId}/profile/…} for a {@code service} token acting for that user (the audit
 * trail names the service as the actor). Another user's facts and candidates answer 404.
 */
@Path("/v1")
@Authenticated
public class ProfileResource {

    private final ProfileService profiles;
    private final ProfileImporter importer;
    private final PendingCandidates pending;
    private final Caller caller;
    private final ProfileMeters meters;
    private final RestConfig config;
    private final ObjectMapper json;
    private final ProfileTimeline timeline;

    public ProfileResource(ProfileService profiles, ProfileImporter importer, PendingCandidates pending, Caller caller,
            ProfileMeters meters, RestConfig config, ObjectMapper json, ProfileTimeline timeline) {
        this.timeline = timeline;
        this.meters = meters;
        this.json = json;
        this.config = config;
        this.profiles = profiles;
        this.importer = importer;
        this.pending = pending;
        this.caller = caller;
    }

    @Path("/profile")
    public ProfileOperations mine() {
        return new ProfileOperations(caller.userId(), caller.userId(), profiles, importer, pending, meters, json).paged(config)
                .timed(timeline);
    }

    @Path("/users/{userId}/profile")
    public ProfileOperations of(@PathParam("userId") String userId) {
        return new ProfileOperations(caller.actFor(userId), caller.userId(), profiles, importer, pending, meters, json)
                .paged(config).timed(timeline);
    }
}

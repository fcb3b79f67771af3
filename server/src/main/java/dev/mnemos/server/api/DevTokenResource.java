package dev.mnemos.server.api;

import dev.mnemos.rest.*;
import io.quarkus.arc.profile.IfBuildProfile;
import io.smallrye.jwt.build.Jwt;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.time.Duration;
import java.util.Set;

/**
 * Dev mode only: mints a token signed with the dev key pair ({@code src/main/resources/dev-keys}),
 * so a developer can call the API with curl. Not part of a production build.
 */
@IfBuildProfile("dev")
@Path("/dev/token")
public class DevTokenResource {

    @Operation(summary = "Mint a dev token", description = "Dev mode only: a 12-hour JWT for `user` (default dev-user), with the service role when `service=true`.")
    @APIResponse(responseCode = "200", description = "A signed JWT.")
    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String token(@QueryParam("user") String user, @QueryParam("service") boolean service) {
        String subject = user == null || user.isBlank() ? "dev-user" : user;
        Set<String> groups = service ? Set.of("user", Caller.SERVICE_ROLE) : Set.of("user");
        return Jwt.issuer("mnemos").subject(subject).upn(subject).groups(groups)
                .expiresIn(Duration.ofHours(12)).sign();
    }
}

package dev.mnemos.testsupport;

import io.quarkus.security.Authenticated;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** An application endpoint of the kind a Mnemos user writes: the caller's token is the request's SecurityIdentity. */
@Path("/test/trip-chat/{sessionId}")
@Authenticated
public class TripChatResource {

    private final TripAi ai;

    public TripChatResource(TripAi ai) {
        this.ai = ai;
    }

    /** Hidden from the OpenAPI document: a test fixture, not part of Mnemos' API. */
    @POST
    @Operation(hidden = true)
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.TEXT_PLAIN)
    public String chat(@PathParam("sessionId") String sessionId, String message) {
        return ai.chat(sessionId, message);
    }
}

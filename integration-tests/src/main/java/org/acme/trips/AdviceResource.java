package org.acme.trips;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The adviser's chat: each message is one step of the session named in the path. */
@Path("/advice/{sessionId}")
public class AdviceResource {

    private final TripAdvisor adviser;

    public AdviceResource(TripAdvisor adviser) {
        this.adviser = adviser;
    }

    @POST
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.TEXT_PLAIN)
    public String ask(@PathParam("sessionId") String sessionId, String message) {
        return adviser.advise(sessionId, message);
    }
}

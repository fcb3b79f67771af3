package org.acme.packing;

import io.quarkus.security.Authenticated;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The app's own endpoints: each call is one step of the signed-in user's packing session. */
@Path("/packing/{sessionId}")
@Authenticated
@Consumes(MediaType.TEXT_PLAIN)
@Produces(MediaType.TEXT_PLAIN)
public class PackingResource {

    private final PackingAssistant assistant;

    public PackingResource(PackingAssistant assistant) {
        this.assistant = assistant;
    }

    @POST
    @Path("/list")
    public String list(@PathParam("sessionId") String sessionId, String question) {
        return assistant.list(sessionId, question);
    }

    @POST
    @Path("/check")
    public String check(@PathParam("sessionId") String sessionId, String question) {
        return assistant.check(sessionId, question);
    }
}

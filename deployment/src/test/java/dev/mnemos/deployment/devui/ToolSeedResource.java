package dev.mnemos.deployment.devui;

import dev.mnemos.injection.ActingAs;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import java.util.concurrent.CompletableFuture;

/** Starts a session for a user and plays one step of {@link ToolAssistant} in it, as a background job would. */
@Path("/seed-tools")
@PermitAll
public class ToolSeedResource {

    private final SessionStore sessions;
    private final ToolAssistant assistant;

    public ToolSeedResource(SessionStore sessions, ToolAssistant assistant) {
        this.sessions = sessions;
        this.assistant = assistant;
    }

    @POST
    @Path("/{user}")
    public String seed(@PathParam("user") String user) {
        return CompletableFuture.supplyAsync(() -> {
            String sessionId = sessions
                    .create(NewSession.of(user, SessionPatch.builder().goal("Kyoto in spring").build()).by(user))
                    .sessionId();
            ActingAs.user(user).call(() -> assistant.advise(sessionId, "What will the weather be?"));
            return sessionId;
        }).join();
    }
}

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

/** The test applications' own endpoint: starts a session for a user and plays one AI step in it. */
@Path("/seed")
@PermitAll
public class SeedResource {

    private final SessionStore sessions;
    private final DevAssistant assistant;

    public SeedResource(SessionStore sessions, DevAssistant assistant) {
        this.sessions = sessions;
        this.assistant = assistant;
    }

    /** Seeds as a background job would, outside the request, naming the user it acts for. */
    @POST
    @Path("/{user}")
    public String seed(@PathParam("user") String user) {
        return CompletableFuture.supplyAsync(() -> {
            String sessionId = sessions
                    .create(NewSession.of(user, SessionPatch.builder().goal("A dev-mode trip to Kyoto").build()).by(user))
                    .sessionId();
            ActingAs.user(user).call(() -> assistant.advise(sessionId, "When should I go?"));
            return sessionId;
        }).join();
    }
}

package dev.mnemos.deployment.devui;

import dev.mnemos.injection.ActingAs;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import java.util.concurrent.CompletableFuture;

/**
 * Starts a session whose goal holds markup ({@link #GOAL}) for a user and plays one step of {@link ToolAssistant} in
 * it, as a background job would: the step's trace lists a tool run whose result holds markup too. Plays more steps
 * on demand.
 */
@Path("/seed-page")
public class PageSeedResource {

    static final String GOAL = "<b>x</b> in Kyoto";

    private final SessionStore sessions;
    private final ToolAssistant assistant;

    public PageSeedResource(SessionStore sessions, ToolAssistant assistant) {
        this.sessions = sessions;
        this.assistant = assistant;
    }

    @POST
    @Path("/{user}")
    public String seed(@PathParam("user") String user) {
        return CompletableFuture.supplyAsync(() -> {
            String sessionId = sessions.create(NewSession.of(user, SessionPatch.builder().goal(GOAL).build()).by(user))
                    .sessionId();
            ActingAs.user(user).call(() -> assistant.advise(sessionId, "What will the weather be?"));
            return sessionId;
        }).join();
    }

    /** Plays one more step in the user's session. */
    @POST
    @Path("/{user}/{session}")
    public void step(@PathParam("user") String user, @PathParam("session") String sessionId) {
        CompletableFuture.runAsync(() -> ActingAs.user(user).call(() -> assistant.advise(sessionId, "And tomorrow?"))).join();
    }
}

package dev.mnemos.deployment.devui;

import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import java.util.concurrent.CompletableFuture;

/** The dev-mode test applications' own endpoint: starts {@code count} sessions of a user. */
@Path("/seed-sessions")
@PermitAll
public class ManySessionsResource {

    private final SessionStore sessions;

    public ManySessionsResource(SessionStore sessions) {
        this.sessions = sessions;
    }

    /** Seeds as a background job would, outside the request, naming the user it acts for. */
    @POST
    @Path("/{user}/{count}")
    public void seed(@PathParam("user") String user, @PathParam("count") int count) {
        CompletableFuture.runAsync(() -> {
            for (int i = 1; i <= count; i++) {
                sessions.create(NewSession.of(user, SessionPatch.builder().goal("Trip " + i).build()).by(user));
            }
        }).join();
    }
}

package dev.mnemos.devmode;

import dev.mnemos.devmode.devui.DevUsers;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/**
 * Dev mode only: {@code GET /v1/dev/users}, the users who have a session index in Redis ({@link DevUsers}: at most
 * {@value DevUsers#LIMIT}, sorted), for the dev-mode inspector's user picker; the picker also takes any user id typed
 * in. Answers 404 to another machine, as if it did not exist.
 */
@Path("/v1/dev")
@PermitAll
@Produces(MediaType.APPLICATION_JSON)
public class DevUsersResource {

    private final DevUsers users;

    public DevUsersResource(DevUsers users) {
        this.users = users;
    }

    @GET
    @Path("/users")
    public List<String> users(@Context HttpServerRequest request) {
        if (!DevUserMechanism.isLocal(request.remoteAddress())) {
            throw new NotFoundException();
        }
        return users.list();
    }
}

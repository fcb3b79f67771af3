package dev.mnemos.devmode;

import dev.mnemos.session.SessionKeys;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.keys.KeyScanArgs;
import io.quarkus.redis.datasource.keys.KeyScanCursor;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;

import java.util.List;
import java.util.TreeSet;

/**
 * Dev mode only: {@code GET /v1/dev/users}, the users who have a session index in Redis (live sessions, or ones
 * that ended recently), for the dev-mode inspector's user picker. At most {@value #LIMIT} of them, sorted; the
 * picker also takes any user id typed in. Answers 404 to another machine, as if it did not exist.
 */
@Path("/v1/dev")
@PermitAll
@Produces(MediaType.APPLICATION_JSON)
public class DevUsersResource {

    static final int LIMIT = 100;

    private final RedisDataSource redis;

    public DevUsersResource(RedisDataSource redis) {
        this.redis = redis;
    }

    @GET
    @Path("/users")
    public List<String> users(@Context HttpServerRequest request) {
        if (!DevUserMechanism.isLocal(request.remoteAddress())) {
            throw new NotFoundException();
        }
        KeyScanCursor<String> cursor = redis.key(String.class)
                .scan(new KeyScanArgs().match(SessionKeys.userSessionsPattern()).count(1000));
        TreeSet<String> users = new TreeSet<>();
        while (cursor.hasNext() && users.size() < LIMIT) {
            cursor.next().forEach(key -> users.add(SessionKeys.userOfSessions(key)));
        }
        return users.stream().limit(LIMIT).toList();
    }
}

package dev.mnemos.rest;

import dev.mnemos.session.IdempotencyKeyEndedException;
import dev.mnemos.session.IdempotencyKeyReusedException;
import dev.mnemos.session.SessionTooLargeException;
import dev.mnemos.session.TooManySessionsException;
import dev.mnemos.session.UserBytesExceededException;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.Map;

/** Idempotency and per-user limits of session writes as problem+json (docs/http-api.md). */
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class SessionWriteProblemMappers {

    /**
     * 422, as the IETF Idempotency-Key draft prescribes for a key reused with another payload: the
     * request is well-formed but cannot be processed under that key. (409 would suggest re-reading
     * and retrying, which never helps here.)
     */
    @ServerExceptionMapper
    public Response reused(IdempotencyKeyReusedException e) {
        return Problem.of(422, "Unprocessable Content", e.getMessage()
                + "; nothing was written. Send a new key for a new request, or the same body to get the first answer")
                .withField(SessionResource.IDEMPOTENCY_KEY).toResponse();
    }

    /**
     * 409: the key's session exists, but ended; retrying with the same key can never start it again,
     * and a new key starts a new session.
     */
    @ServerExceptionMapper
    public Response keyEnded(IdempotencyKeyEndedException e) {
        return Problem.of(Response.Status.CONFLICT, e.getMessage() + "; nothing was written. Its history stays readable "
                + "under /v1/sessions/" + e.sessionId() + "; send a new key for a new session")
                .withField(SessionResource.IDEMPOTENCY_KEY).withExtras(Map.of("sessionId", e.sessionId())).toResponse();
    }

    @ServerExceptionMapper
    public Response tooMany(TooManySessionsException e) {
        return Problem.of(429, "Too Many Requests", e.getMessage() + "; nothing was written")
                .withExtras(Map.of("maxLiveSessions", e.max())).toResponse();
    }

    /** 413: the session's state would pass its byte cap; a smaller write, or a new session, goes through. */
    @ServerExceptionMapper
    public Response sessionTooLarge(SessionTooLargeException e) {
        return Problem.of(413, "Content Too Large", e.getMessage() + "; nothing was written")
                .withExtras(Map.of("limit", "quarkus.mnemos.session.max-session-bytes", "maxSessionBytes", e.max(),
                        "sessionBytes", e.bytes()))
                .toResponse();
    }

    /** 429, as for the most live sessions: the user's sessions hold their byte budget until some end or go. */
    @ServerExceptionMapper
    public Response userBytes(UserBytesExceededException e) {
        return Problem.of(429, "Too Many Requests", e.getMessage() + "; nothing was written")
                .withExtras(Map.of("limit", "quarkus.mnemos.session.max-user-bytes", "maxUserBytes", e.max()))
                .toResponse();
    }
}

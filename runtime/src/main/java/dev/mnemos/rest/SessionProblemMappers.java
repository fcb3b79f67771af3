package dev.mnemos.rest;

import dev.mnemos.session.InvalidPatchException;
import dev.mnemos.session.RedisDurabilityException;
import dev.mnemos.session.ReplicaWaitException;
import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionScriptException;
import dev.mnemos.session.SessionStoreUnavailableException;
import dev.mnemos.session.StaleVersionException;
import dev.mnemos.session.VersionGoneException;
import dev.mnemos.session.VersionNotFoundException;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.Map;

/** Session feature exceptions as problem+json. */
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class SessionProblemMappers {

    private static final Logger LOG = Logger.getLogger(SessionProblemMappers.class);
    static final String RETRY_AFTER_SECONDS = "2";

    @ServerExceptionMapper
    public Response invalid(InvalidPatchException e) {
        return Problem.of(Response.Status.BAD_REQUEST, e.field() + ": expected " + e.getMessage())
                .withField(e.field()).toResponse();
    }

    @ServerExceptionMapper
    public Response notFound(SessionNotFoundException e) {
        return Problem.of(Response.Status.NOT_FOUND, "no session '" + e.sessionId() + "'").toResponse();
    }

    @ServerExceptionMapper
    public Response stale(StaleVersionException e) {
        return Problem.of(Response.Status.CONFLICT, "expectedVersion " + e.expected()
                + " is stale: the session is at version " + e.actual() + "; re-read and retry")
                .withField("expectedVersion").withExtras(Map.of("currentVersion", e.actual())).toResponse();
    }

    @ServerExceptionMapper
    public Response ended(SessionEndedException e) {
        return Problem.of(Response.Status.CONFLICT, e.getMessage()).toResponse();
    }

    @ServerExceptionMapper
    public Response gone(VersionGoneException e) {
        return Problem.of(Response.Status.GONE, "version " + e.version()
                + " is older than the retention window; the oldest version kept is " + e.oldest())
                .withField("version").withExtras(Map.of("oldestVersion", e.oldest())).toResponse();
    }

    @ServerExceptionMapper
    public Response noVersion(VersionNotFoundException e) {
        return Problem.of(Response.Status.NOT_FOUND, e.getMessage())
                .withField("version").withExtras(Map.of("currentVersion", e.current())).toResponse();
    }

    @ServerExceptionMapper
    public Response unavailable(SessionStoreUnavailableException e, Request request, UriInfo uri) {
        if (e.outOfMemory()) {
            LOG.warnf("session store full: %s", e.getMessage());
            return unavailable(request, uri, Outcome.OUT_OF_MEMORY);
        }
        LOG.warn("session store unavailable", e);
        return unavailable(request, uri, e.outcomeUnknown() ? Outcome.UNKNOWN : Outcome.NOT_WRITTEN);
    }

    /**
     * Redis answered, with a script's error: a fault, not an outage. 500, no Retry-After (the same request fails the
     * same way); the log has Redis' error.
     */
    @ServerExceptionMapper
    public Response scriptFailed(SessionScriptException e) {
        LOG.error("session script failed", e);
        return Problem.of(Response.Status.INTERNAL_SERVER_ERROR, "session memory failed the operation: a Redis script"
                + " answered an error (logged on the server); retrying the same request will not help").toResponse();
    }

    /** Redis runs an evicting policy: nothing was written, and retrying soon will not help until it changes. */
    @ServerExceptionMapper
    public Response evicting(RedisDurabilityException e) {
        Response problem = Problem.of(Response.Status.SERVICE_UNAVAILABLE, e.getMessage())
                .withExtras(Map.of("reason", "redis-evicting", "maxmemoryPolicy", e.policy())).toResponse();
        // about the default interval of the background check that notices the policy changed back
        return Response.fromResponse(problem).header("Retry-After", "10").build();
    }

    /**
     * The master wrote, no replica confirmed in time ({@code quarkus.mnemos.session.replica-wait}): the write is in the
     * session unless the master fails over before it replicates. Said as it is, with the version written.
     */
    @ServerExceptionMapper
    public Response unreplicated(ReplicaWaitException e) {
        LOG.warnf("session write not confirmed by a replica: %s", e.getMessage());
        Response problem = Problem.of(Response.Status.SERVICE_UNAVAILABLE, "session memory " + e.getMessage()
                + "; read the session before writing again, or retry with the same Idempotency-Key")
                .withExtras(Map.of("reason", "redis-unreplicated", "writtenVersion", e.version(),
                        "replicasConfirmed", e.confirmed(), "replicasAsked", e.asked()))
                .toResponse();
        return Response.fromResponse(problem).header("Retry-After", RETRY_AFTER_SECONDS).build();
    }

    @ServerExceptionMapper
    public Response timeout(TimeoutException e, Request request, UriInfo uri) {
        LOG.warn("a dependency timed out", e);
        return unavailable(request, uri, Outcome.UNKNOWN);
    }

    private enum Outcome {
        UNKNOWN,
        NOT_WRITTEN,
        /** Redis refused the write at maxmemory: nothing was written. */
        OUT_OF_MEMORY
    }

    /**
     * 503 with Retry-After. A read says only that. A write says what is known: a command that timed
     * out may have been applied after the answer was given up on, so "nothing was written" is said
     * only when the connection was refused before the command was sent.
     */
    private static Response unavailable(Request request, UriInfo uri, Outcome outcome) {
        String path = uri.getPath();
        boolean keyed = path.startsWith("/v1/sessions") || path.matches("/v1/users/[^/]+/sessions.*");
        boolean read = "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod());
        String detail = read ? "session memory did not answer; retry after " + RETRY_AFTER_SECONDS + " seconds"
                : outcome == Outcome.OUT_OF_MEMORY
                        ? "session memory is full (Redis refused the write at its maxmemory); nothing was written;"
                                + " retry after " + RETRY_AFTER_SECONDS + " seconds"
                        : outcome == Outcome.NOT_WRITTEN
                                ? "session memory is unreachable; nothing was written; retry after " + RETRY_AFTER_SECONDS
                                        + " seconds"
                                : "session memory did not answer in time: the write may or may not have been applied;"
                                        + " retry after " + RETRY_AFTER_SECONDS + " seconds"
                                        + (keyed ? " with the same Idempotency-Key to apply it exactly once" : "");
        Problem problem = Problem.of(Response.Status.SERVICE_UNAVAILABLE, detail);
        if (outcome == Outcome.OUT_OF_MEMORY && !read) {
            problem = problem.withExtras(Map.of("reason", "redis-oom"));
        }
        return Response.fromResponse(problem.toResponse()).header("Retry-After", RETRY_AFTER_SECONDS).build();
    }
}

package dev.mnemos.rest;

import dev.mnemos.injection.MissingMemoryIdException;
import dev.mnemos.injection.SessionMemoryUnavailableException;
import dev.mnemos.injection.SessionMixUpException;
import dev.mnemos.injection.StepWriteConflictException;
import dev.mnemos.injection.StepWriteRejectedException;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Failures of annotated AI-service calls, for resources (such as the agent's) that make them. */
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class InjectionProblemMappers {

    private static final Logger LOG = Logger.getLogger(InjectionProblemMappers.class);

    @ServerExceptionMapper
    public Response unavailable(SessionMemoryUnavailableException e) {
        LOG.warn("session memory unavailable", e);
        Problem problem = Problem.of(Response.Status.SERVICE_UNAVAILABLE,
                "session memory is temporarily unavailable; the model was not called and nothing was written; retry after "
                        + SessionProblemMappers.RETRY_AFTER_SECONDS + " seconds");
        return Response.fromResponse(problem.toResponse())
                .header("Retry-After", SessionProblemMappers.RETRY_AFTER_SECONDS).build();
    }

    @ServerExceptionMapper
    public Response conflict(StepWriteConflictException e) {
        return Problem.of(Response.Status.CONFLICT, e.getMessage() + "; retry the message").toResponse();
    }

    @ServerExceptionMapper
    public Response rejected(StepWriteRejectedException e) {
        LOG.warn(e.getMessage());
        return Problem.of(502, "Bad Gateway", e.getMessage()).toResponse();
    }

    @ServerExceptionMapper
    public Response mixUp(SessionMixUpException e) {
        return Problem.of(Response.Status.CONFLICT, e.getMessage()).toResponse();
    }

    @ServerExceptionMapper
    public Response missingId(MissingMemoryIdException e) {
        return Problem.of(Response.Status.BAD_REQUEST, "sessionId: expected a non-blank session id")
                .withField("sessionId").toResponse();
    }
}

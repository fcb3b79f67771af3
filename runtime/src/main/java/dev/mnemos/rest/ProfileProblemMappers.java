package dev.mnemos.rest;

import dev.mnemos.app.PendingRequestDecidedException;
import dev.mnemos.app.PendingRequestNotFoundException;
import dev.mnemos.crypt.EncryptionOffException;
import dev.mnemos.crypt.SealedValueException;
import dev.mnemos.profile.FactNotFoundException;
import dev.mnemos.profile.InvalidFactException;
import dev.mnemos.profile.PostgresFaults;
import dev.mnemos.profile.ProfileFullException;
import dev.mnemos.profile.ProfileUnavailableException;
import dev.mnemos.promotion.CandidateNotFoundException;
import dev.mnemos.promotion.EndIncompleteException;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.persistence.PersistenceException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.Map;

/** Maps the profile's and promotion's exceptions to problem+json. */
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class ProfileProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProfileProblemMappers.class);

    @ServerExceptionMapper
    public Response notFound(FactNotFoundException e) {
        return Problem.of(Response.Status.NOT_FOUND, "no profile fact " + e.factId() + " exists for this user")
                .withField("id").toResponse();
    }

    @ServerExceptionMapper
    public Response invalid(InvalidFactException e) {
        return Problem.of(Response.Status.BAD_REQUEST, e.field() + ": expected " + e.getMessage())
                .withField(e.field()).toResponse();
    }

    @ServerExceptionMapper
    public Response full(ProfileFullException e) {
        return Problem.of(Response.Status.CONFLICT, "the profile already holds the maximum of " + e.maxFacts()
                + " active facts; forget or correct one first")
                .withExtras(Map.of("maxFacts", e.maxFacts())).toResponse();
    }

    /**
     * A stored value that does not open (copied from another user or place, altered, or its user's data key gone): 500,
     * naming where, never its content; never answered as garbage.
     */
    @ServerExceptionMapper
    public Response sealed(SealedValueException e) {
        LOG.error(e.getMessage());
        return Problem.of(500, "Stored memory does not open", e.getMessage())
                .withExtras(Map.of("place", e.place())).toResponse();
    }

    /** A rotation or sealing pass asked of a Mnemos without a key-encryption key: nothing to do, and nothing done. */
    @ServerExceptionMapper
    public Response encryptionOff(EncryptionOffException e) {
        return Problem.of(Response.Status.CONFLICT, e.getMessage()).toResponse();
    }

    @ServerExceptionMapper
    public Response unavailable(ProfileUnavailableException e) {
        return postgresUnavailable(e);
    }

    /** 503 as {@link #postgresUnavailable}, saying that the session is ended already and a repeated end completes it. */
    @ServerExceptionMapper
    public Response endIncomplete(EndIncompleteException e) {
        LOG.warnf("session end incomplete (%s): %s", PostgresFaults.reason(e).orElse("unreachable"), e.toString());
        Problem problem = Problem.of(Response.Status.SERVICE_UNAVAILABLE, END_INCOMPLETE_DETAIL)
                .withExtras(Map.of("sessionId", e.sessionId(), "sessionStatus", "ENDED"));
        return Response.fromResponse(problem.toResponse())
                .header("Retry-After", SessionProblemMappers.RETRY_AFTER_SECONDS).build();
    }

    static final String END_INCOMPLETE_DETAIL = "the profile store failed while the session was being ended: the session"
            + " is ENDED (its writes answer 409) but its observations are not promoted and it is not archived yet;"
            + " repeat POST /v1/sessions/{id}/end after " + SessionProblemMappers.RETRY_AFTER_SECONDS
            + " seconds to complete the end";

    /**
     * The answer to every transient Postgres failure ({@link dev.mnemos.profile.PostgresFaults}): 503 with
     * {@code Retry-After}. A write that failed is not acknowledged; one cut off during its commit may still
     * have been applied, so the detail says to retry with the same Idempotency-Key (or re-read before retrying).
     */
    static Response postgresUnavailable(Throwable e) {
        LOG.warnf("profile store unavailable (%s): %s",
                PostgresFaults.reason(e).orElse("unreachable"), e.toString());
        LOG.debug("profile store unavailable", e);
        Problem problem = Problem.of(Response.Status.SERVICE_UNAVAILABLE, POSTGRES_DETAIL);
        return Response.fromResponse(problem.toResponse())
                .header("Retry-After", SessionProblemMappers.RETRY_AFTER_SECONDS).build();
    }

    static final String POSTGRES_DETAIL = "the profile store is temporarily unavailable; the request was not completed "
            + "(retry a write with the same Idempotency-Key, or re-read before retrying it); retry after "
            + SessionProblemMappers.RETRY_AFTER_SECONDS + " seconds";

    @ServerExceptionMapper
    public Response noCandidate(CandidateNotFoundException e) {
        return Problem
                .of(Response.Status.NOT_FOUND, "no pending promotion candidate " + e.candidateId() + " exists for this user")
                .withField("id").toResponse();
    }

    @ServerExceptionMapper
    public Response noPendingRequest(PendingRequestNotFoundException e) {
        return Problem.of(Response.Status.NOT_FOUND, "no pending request " + e.requestId() + " exists for this user")
                .withField("id").toResponse();
    }

    @ServerExceptionMapper
    public Response decided(PendingRequestDecidedException e) {
        return Problem.of(Response.Status.CONFLICT, "pending request " + e.requestId() + " is " + e.status()
                + " already; the first decision stands").withField("id").withExtras(Map.of("status", e.status()))
                .toResponse();
    }

    /**
     * Any persistence failure that means Postgres is unreachable or busy answers 503, never 500; null when {@code e} is
     * no persistence failure. Called by {@link ProblemMappers#unexpected} through {@link ProfileStoreFaults}: a mapper
     * method naming {@code PersistenceException} would not build in an application without Hibernate ORM.
     */
    static Response persistence(RuntimeException e) {
        if (!(e instanceof PersistenceException)) {
            return null;
        }
        if (PostgresFaults.isTransient(e)) {
            return postgresUnavailable(e);
        }
        LOG.error("unexpected persistence failure", e);
        return Problem.of(Response.Status.INTERNAL_SERVER_ERROR, "the request could not be completed").toResponse();
    }
}

package dev.mnemos.rest;

import dev.mnemos.session.Constraint;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionPatch;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/** Request bodies of the session endpoints. */
public final class SessionRequests {

    private SessionRequests() {
    }

    /** {@code POST /v1/sessions}: every field optional. */
    @Schema(name = "SessionCreateRequest")
    public record Create(String goal, String context, List<Constraint> constraints) {

        SessionPatch patch() {
            return new SessionPatch(goal, context, null, constraints, null, null, null, null, null, null, null, null, null);
        }
    }

    /** {@code POST /v1/sessions/{id}/steps}: a compare-and-set when {@code expectedVersion} is given. */
    @Schema(name = "StepWriteRequest")
    public record Step(Long expectedVersion, SessionPatch patch, String note) {
    }

    /** {@code POST /v1/sessions/{id}/rollback}. */
    @Schema(name = "RollbackRequest")
    public record Rollback(Long toVersion, Long expectedVersion) {
    }

    /** {@code POST /v1/sessions/{id}/fork}. */
    @Schema(name = "ForkRequest")
    public record Fork(Long fromVersion) {
    }

    /** {@code POST /v1/sessions/{id}/observations}: one candidate preference or fact. */
    @Schema(name = "ObservationRequest")
    public record NewObservation(String text, Observation.Kind kind, Scope scope, String slot,
            Boolean explicit, String evidence) {

        Observation observation() {
            return new Observation(null, text, kind, scope, slot, Boolean.TRUE.equals(explicit), evidence);
        }
    }
}

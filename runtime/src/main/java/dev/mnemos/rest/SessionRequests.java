package dev.mnemos.rest;

import dev.mnemos.session.Constraint;
import dev.mnemos.session.Observation;
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
    public record NewObservation(String text, Observation.Kind kind, dev.mnemos.session.Scope scope, String slot,
            Boolean explicit, String evidence) {

        Observation observation() {
            return new Observation(null, text, kind, scope, slot, Boolean.TRUE.equals(explicit), evidence);
        }
    }

    /** The answer to a write: the session and its new version. */
    @Schema(name = "SessionWriteResult", description = "The session and the version the write created.", example = ApiDocs.WRITTEN_EXAMPLE)
    public record Written(String sessionId, long version) {
    }

    /** One line of the version history. */
    @Schema(name = "SessionVersionEntry")
    public record VersionEntry(long version, dev.mnemos.session.SessionEvent.Type type, java.time.Instant at,
            String actor, String note, Long toVersion) {
    }
}

package dev.mnemos.rest;

import dev.mnemos.archive.EndedSessions;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.session.SessionIds;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * What a step read, injected and wrote: {@code GET /v1/sessions/{id}/steps/{v}/trace}, where
 * {@code v} is the version the step wrote. Another user's trace, a version no step wrote, and a
 * trace past its retention or TTL all answer 404. After the session ended, traces are read from its
 * archive ({@link EndedSessions}). The class path is {@code /v1}, like {@code SessionResource}'s: a
 * longer class path would capture {@code /v1/sessions…} requests.
 */
@Path("/v1")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", description = ApiDocs.REDIS_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class), examples = @ExampleObject(name = "example", value = ApiDocs.UNAVAILABLE_EXAMPLE)))
public class TraceResource {

    private final StepTraceStore traces;
    private final EndedSessions archive;
    private final Caller caller;

    public TraceResource(StepTraceStore traces, EndedSessions archive, Caller caller) {
        this.traces = traces;
        this.archive = archive;
        this.caller = caller;
    }

    @Operation(summary = "Read a step trace", description = "What the step that wrote `version` read, injected into the prompt and wrote. After the session ended, read from its archive. 404 for another user's trace, a version no step wrote, or a trace past its retention.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.VERSION_NOT_FOUND)
    @APIResponse(responseCode = "200", description = "The step trace.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = StepTrace.class)))
    @GET
    @Path("/sessions/{id}/steps/{version}/trace")
    public StepTrace trace(@PathParam("id") String sessionId, @PathParam("version") long version) {
        SessionIds.require("id", sessionId);
        StepTrace trace = traces.find(sessionId, version).or(() -> archive.trace(sessionId, version))
                .orElseThrow(NotFoundException::new);
        caller.requireAccess(trace.userId());
        return trace;
    }
}

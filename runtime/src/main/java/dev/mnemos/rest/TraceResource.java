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
public class TraceResource {

    private final StepTraceStore traces;
    private final EndedSessions archive;
    private final Caller caller;

    public TraceResource(StepTraceStore traces, EndedSessions archive, Caller caller) {
        this.traces = traces;
        this.archive = archive;
        this.caller = caller;
    }

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

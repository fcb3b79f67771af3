package dev.mnemos.rest;

import dev.mnemos.profile.KeptFact;
import dev.mnemos.profile.UndoConflictException;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.Map;
import java.util.stream.Collectors;

/** Maps a refused undo of a session's promotion to problem+json: 409 naming the facts later changes touched. */
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class UndoProblemMappers {

    @ServerExceptionMapper
    public Response conflict(UndoConflictException e) {
        String facts = e.conflicts().stream().map(c -> "fact " + c.factId() + " (" + c.reason() + ")")
                .collect(Collectors.joining("; "));
        return Problem.of(Response.Status.CONFLICT, "later changes touched what session " + e.sessionId()
                + "'s end changed: " + facts + ". Nothing was undone; undo with force=true to revert the rest and keep"
                + " the later changes")
                .withField("force")
                .withExtras(Map.of("sessionId", e.sessionId(), "factIds", e.factIds(), "conflicts",
                        e.conflicts().stream().map(UndoProblemMappers::member).toList()))
                .toResponse();
    }

    private static Map<String, Object> member(KeptFact conflict) {
        return Map.of("factId", conflict.factId(), "reason", conflict.reason());
    }
}

package dev.mnemos.rest;

import dev.mnemos.erasure.UserErasure;
import dev.mnemos.erasure.UserExport;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.util.Map;

/**
 * All of a user's data at once (docs/http-api.md, "Erase and export"): {@code GET /v1/me/export} and
 * {@code DELETE /v1/me} for the caller, {@code GET /v1/users/{userId}/export} and {@code DELETE /v1/users/{userId}}
 * for a {@code service} token acting for that user (or the user themself). Another user answers 404.
 */
@Path("/v1")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
public class UserDataResource {

    /** Recorded as who asked for an erasure when the user erased themself (their id is not kept). */
    static final String SELF = "user";

    private final UserErasure erasure;
    private final UserExport export;
    private final Caller caller;

    public UserDataResource(UserErasure erasure, UserExport export, Caller caller) {
        this.erasure = erasure;
        this.export = export;
        this.caller = caller;
    }

    @Operation(summary = "Export my data", description = "Everything Mnemos holds about the caller as JSON: every row of theirs in every Mnemos table (facts of every status, the audit trail, promotion candidates, archived sessions, idempotency records, forgotten-text tombstones) and every Redis key of their live sessions.")
    @APIResponse(responseCode = "200", description = "The export.")
    @GET
    @Path("/me/export")
    public Map<String, Object> exportMine() {
        return export.export(caller.userId());
    }

    @Operation(summary = "Export a user's data", description = "As `GET /v1/me/export`, for the user in the path: a `service` token, or the user themself.")
    @APIResponse(responseCode = "200", description = "The export.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = "Not the caller, and the caller is no service.")
    @GET
    @Path("/users/{userId}/export")
    public Map<String, Object> exportOf(@PathParam("userId") String userId) {
        return export.export(caller.actFor(userId));
    }

    @Operation(summary = "Erase me", description = "Deletes everything Mnemos holds about the caller: profile facts of every status, audit trail, promotion candidates, archived sessions, idempotency records, tombstones, live sessions and their index, cached facts. Keeps only a record that an erasure happened, naming no user. Calling it again erases what a concurrent call may have written meanwhile.")
    @APIResponse(responseCode = "200", description = "What was deleted: rows per table and Redis keys.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = UserErasure.Erasure.class)))
    @DELETE
    @Path("/me")
    public UserErasure.Erasure eraseMe() {
        return erasure.erase(caller.userId(), SELF);
    }

    @Operation(summary = "Erase a user", description = "As `DELETE /v1/me`, for the user in the path: a `service` token (recorded by its name), or the user themself.")
    @APIResponse(responseCode = "200", description = "What was deleted: rows per table and Redis keys.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = UserErasure.Erasure.class)))
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = "Not the caller, and the caller is no service.")
    @DELETE
    @Path("/users/{userId}")
    public UserErasure.Erasure eraseUser(@PathParam("userId") String userId) {
        String target = caller.actFor(userId);
        return erasure.erase(target, target.equals(caller.userId()) ? SELF : caller.userId());
    }
}

package dev.mnemos.rest;

import dev.mnemos.app.Actor;
import dev.mnemos.app.Page;
import dev.mnemos.app.PendingRequest;
import dev.mnemos.app.PendingRequestDecision;
import dev.mnemos.app.PendingRequests;
import dev.mnemos.profile.ProfileMeters;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * The user's decisions on destructive calls an agent made beyond its MCP session's budget ({@link PendingRequests}),
 * served under {@code /v1/profile/pending-requests} only: the owner decides, never a service acting for them.
 */
@APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
public class PendingRequestOperations {

    private static final String NOT_FOUND = "No such pending request for this user (another user's answers 404 too).";
    private static final String DECIDED = "Conflict: the request was decided the other way already (a rejected one "
            + "cannot be confirmed, a confirmed one cannot be rejected); `field` is `id`.";

    private final Actor who;
    private final PendingRequests requests;
    private final ProfileMeters meters;
    private final RestConfig config;

    PendingRequestOperations(Actor who, PendingRequests requests, ProfileMeters meters, RestConfig config) {
        this.who = who;
        this.requests = requests;
        this.meters = meters;
        this.config = config;
    }

    @Operation(summary = "List destructive calls pending the user", description = "Forgets and undos an agent asked for over MCP beyond its session's budget (docs/mcp.md \"Destructive tools\"), oldest first; nothing was changed yet.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "200", description = "The pending requests.", headers = {
            @Header(name = "Mnemos-Next-Cursor", description = ApiDocs.NEXT_CURSOR, schema = @Schema(type = SchemaType.STRING)),
            @Header(name = "Link", description = ApiDocs.NEXT_LINK, schema = @Schema(type = SchemaType.STRING)) }, content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.ARRAY, implementation = PendingRequest.class)))
    @GET
    public Response pending(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @Context UriInfo uri) {
        int size = Pages.limit(limit, config);
        long after = cursor == null ? 0 : Pages.number(cursor, "pending-requests");
        Page<PendingRequest> page = requests.pending(who.user(), after, size);
        return Pages.page(page.items(), "pending-requests", page.next(), uri);
    }

    @Operation(summary = "Confirm a pending destructive call", description = "Carries the call `id` out (the forget, the undo) as the user's own, once: a repeat, or confirms racing, answer the request with `repeated: true` and do nothing more. A call that fails (the fact is gone, the undo conflicts) answers as the call would and leaves the request pending.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = DECIDED)
    @APIResponse(responseCode = "200", description = "The decision and what the call did.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = PendingRequestDecision.class)))
    @POST
    @Path("/{id}/confirm")
    public PendingRequestDecision confirm(@PathParam("id") String id) {
        long request = id(id);
        return meters.profileWrite("confirm-request", () -> requests.confirm(who, request));
    }

    @Operation(summary = "Reject a pending destructive call", description = "Drops the call `id`: nothing is changed. A repeat answers the request with `repeated: true`.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = DECIDED)
    @APIResponse(responseCode = "200", description = "The decision.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = PendingRequestDecision.class)))
    @POST
    @Path("/{id}/reject")
    public PendingRequestDecision reject(@PathParam("id") String id) {
        long request = id(id);
        return meters.profileWrite("reject-request", () -> requests.reject(who, request));
    }

    /** The request id of the path. @throws InvalidRequestException naming {@code id} unless a positive whole number */
    private static long id(String id) {
        try {
            long value = Long.parseLong(id);
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InvalidRequestException("id", "a pending request's id, a positive whole number");
    }
}

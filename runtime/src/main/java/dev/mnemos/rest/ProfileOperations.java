package dev.mnemos.rest;

import dev.mnemos.app.Actor;
import dev.mnemos.app.Page;
import dev.mnemos.app.ProfileResponse;
import dev.mnemos.app.UserProfileService;
import dev.mnemos.profile.HistoryEntry;
import dev.mnemos.profile.ProfileAsOf;
import dev.mnemos.profile.ProfileDiff;
import dev.mnemos.profile.ProfileMeters;
import dev.mnemos.profile.WriteResult;
import dev.mnemos.promotion.PendingCandidate;
import dev.mnemos.promotion.PendingDecision;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
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
import org.eclipse.microprofile.openapi.annotations.media.ExampleObject;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.time.Instant;

/**
 * The profile endpoints for one user, acted on by {@code who.actor()} (the user, or a service acting for them): each
 * parses its request and hands it to {@link UserProfileService}. Served under {@code /v1/profile} and
 * {@code /v1/users/{userId}/profile} by {@link ProfileResource}.
 */
@APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
public class ProfileOperations {

    private final Actor who;
    private final UserProfileService profiles;
    private final ProfileMeters meters;
    private final RestConfig config;

    ProfileOperations(Actor who, UserProfileService profiles, ProfileMeters meters, RestConfig config) {
        this.who = who;
        this.profiles = profiles;
        this.meters = meters;
        this.config = config;
    }

    @Operation(summary = "Read the profile", description = "The user's active long-term facts; with `asOf` (an ISO-8601 instant such as 2026-12-04T10:15:30Z) the facts valid at that instant, each with the period of its validity and the audit event that made it.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER)
    @APIResponse(responseCode = "200", description = "The active facts; with `asOf`, the profile as of that instant.", content = @Content(mediaType = "application/json", schema = @Schema(oneOf = {
            ProfileResponse.class, ProfileAsOf.class })))
    @GET
    public Object profile(@QueryParam("asOf") String asOf) {
        if (asOf != null) {
            return profiles.asOf(who.user(), Instants.parse("asOf", asOf));
        }
        return profiles.profile(who.user());
    }

    @Operation(summary = "Compare the profile at two instants", description = "The facts removed and added from `from` to `to` (ISO-8601 instants, `from` not after `to`), each with the audit event that did it (which session or call), and the audit events in between, oldest first (at most 1000; `moreEvents` when there were more).")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER)
    @APIResponse(responseCode = "200", description = "The changes between the two instants.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = ProfileDiff.class)))
    @GET
    @Path("/diff")
    public ProfileDiff diff(@QueryParam("from") String from, @QueryParam("to") String to) {
        Instant start = Instants.parse("from", from);
        Instant end = Instants.parse("to", to);
        if (start.isAfter(end)) {
            throw new InvalidRequestException("to", "an instant not before from (" + start + ")");
        }
        return profiles.diff(who.user(), start, end);
    }

    @Operation(summary = "Add a fact", description = "Adds one fact to the profile; answers 201 with the write result. A fact in an already-taken slot supersedes the old one."
            + ApiDocs.PROFILE_IDEMPOTENT)
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER)
    @APIResponse(responseCode = "409", description = ApiDocs.PROFILE_FULL)
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "201", description = "The write result.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = WriteResult.class)))
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED)
    @POST
    @Path("/facts")
    public Response add(@HeaderParam(SessionResource.IDEMPOTENCY_KEY) String key,
            @RequestBody(content = @Content(mediaType = "application/json", schema = @Schema(implementation = FactRequest.class), examples = @ExampleObject(name = "example", value = ApiDocs.FACT_EXAMPLE))) FactRequest request) {
        WriteResult result = meters.profileWrite("add",
                () -> profiles.add(who, request == null ? null : request.toFact(), key, request));
        return Response.status(Response.Status.CREATED).entity(result).build();
    }

    @Operation(summary = "Correct a fact", description = "Replaces the fact `id` with the corrected one; the old version stays in the history."
            + ApiDocs.PROFILE_IDEMPOTENT)
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.FACT_NOT_FOUND)
    @APIResponse(responseCode = "409", description = ApiDocs.PROFILE_FULL)
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "200", description = "The write result.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = WriteResult.class)))
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED)
    @PUT
    @Path("/facts/{id}")
    public WriteResult correct(@PathParam("id") long id, @HeaderParam(SessionResource.IDEMPOTENCY_KEY) String key,
            FactRequest request) {
        return meters.profileWrite("correct",
                () -> profiles.correct(who, id, request == null ? null : request.toFact(), key, request));
    }

    @Operation(summary = "Forget a fact", description = "Retires the fact `id`; it stays in the audit history only."
            + ApiDocs.PROFILE_IDEMPOTENT)
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.FACT_NOT_FOUND)
    @APIResponse(responseCode = "200", description = "The write result.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = WriteResult.class)))
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED)
    @DELETE
    @Path("/facts/{id}")
    public WriteResult forget(@PathParam("id") long id, @HeaderParam(SessionResource.IDEMPOTENCY_KEY) String key) {
        return meters.profileWrite("forget", () -> profiles.forget(who, id, key, null));
    }

    @Operation(summary = "Apply a natural-language instruction", description = "Turns an instruction such as \"forget that I live in Paris\" into profile writes."
            + ApiDocs.PROFILE_IDEMPOTENT)
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER)
    @APIResponse(responseCode = "409", description = ApiDocs.PROFILE_FULL)
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "200", description = "The write result.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = WriteResult.class)))
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED)
    @POST
    @Path("/instruct")
    public WriteResult instruct(@HeaderParam(SessionResource.IDEMPOTENCY_KEY) String key, InstructRequest request) {
        return meters.profileWrite("instruct",
                () -> profiles.instruct(who, request == null ? null : request.instruction(), key, request));
    }

    @Operation(summary = "Import facts from text", description = "Extracts facts from free text and writes them to the profile."
            + ApiDocs.PROFILE_IDEMPOTENT)
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER)
    @APIResponse(responseCode = "409", description = ApiDocs.PROFILE_FULL)
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "200", description = "The write result.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = WriteResult.class)))
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED)
    @POST
    @Path("/import")
    public WriteResult importText(@HeaderParam(SessionResource.IDEMPOTENCY_KEY) String key, ImportRequest request) {
        return meters.profileWrite("import",
                () -> profiles.importText(who, request == null ? null : request.text(), key, request));
    }

    @Operation(summary = "Read the profile history", description = "Every change of the user's profile, oldest first, with its actor.")
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER)
    @APIResponse(responseCode = "200", description = "The profile history.", headers = {
            @Header(name = "Mnemos-Next-Cursor", description = ApiDocs.NEXT_CURSOR, schema = @Schema(type = SchemaType.STRING)),
            @Header(name = "Link", description = ApiDocs.NEXT_LINK, schema = @Schema(type = SchemaType.STRING)) }, content = @Content(mediaType = "application/json", schema = @Schema(implementation = HistoryResponse.class)))
    @GET
    @Path("/history")
    public Response history(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @Context UriInfo uri) {
        int size = Pages.limit(limit, config);
        long before = cursor == null ? Long.MAX_VALUE : Pages.number(cursor, "history");
        Page<HistoryEntry> page = profiles.history(who.user(), before, size);
        return Pages.page(new HistoryResponse(who.user(), page.items()), "history", page.next(), uri);
    }

    @Operation(summary = "List pending candidates", description = "Observations promotion left PENDING, awaiting the user's confirmation.")
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER)
    @APIResponse(responseCode = "200", description = "The pending candidates.", headers = {
            @Header(name = "Mnemos-Next-Cursor", description = ApiDocs.NEXT_CURSOR, schema = @Schema(type = SchemaType.STRING)),
            @Header(name = "Link", description = ApiDocs.NEXT_LINK, schema = @Schema(type = SchemaType.STRING)) }, content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.ARRAY, implementation = PendingCandidate.class)))
    @GET
    @Path("/pending")
    public Response pending(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @Context UriInfo uri) {
        int size = Pages.limit(limit, config);
        long after = cursor == null ? 0 : Pages.number(cursor, "pending");
        Page<PendingCandidate> page = profiles.pending(who.user(), after, size);
        return Pages.page(page.items(), "pending", page.next(), uri);
    }

    @Operation(summary = "Confirm a pending candidate", description = "Writes the candidate `id` to the profile.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.CANDIDATE_NOT_FOUND)
    @APIResponse(responseCode = "409", description = ApiDocs.PROFILE_FULL)
    @APIResponse(responseCode = "200", description = "The decision.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = PendingDecision.class)))
    @POST
    @Path("/pending/{id}/confirm")
    public PendingDecision confirm(@PathParam("id") long id) {
        return meters.profileWrite("confirm", () -> profiles.confirm(who, id));
    }

    @Operation(summary = "Reject a pending candidate", description = "Discards the candidate `id`; it is never proposed again.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.CANDIDATE_NOT_FOUND)
    @APIResponse(responseCode = "200", description = "The decision.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = PendingDecision.class)))
    @POST
    @Path("/pending/{id}/reject")
    public PendingDecision reject(@PathParam("id") long id) {
        return meters.profileWrite("reject", () -> profiles.reject(who, id));
    }
}

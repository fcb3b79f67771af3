package dev.mnemos.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.profile.HistoryEntry;
import dev.mnemos.profile.ProfileAsOf;
import dev.mnemos.profile.ProfileDiff;
import dev.mnemos.profile.ProfileImporter;
import dev.mnemos.profile.ProfileMeters;
import dev.mnemos.profile.ProfileService;
import dev.mnemos.profile.ProfileTimeline;
import dev.mnemos.profile.WriteResult;
import dev.mnemos.promotion.PendingCandidate;
import dev.mnemos.promotion.PendingCandidates;
import dev.mnemos.promotion.PendingDecision;
import dev.mnemos.session.Idempotency;
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
import java.util.List;

/**
 * The profile endpoints for one user, acted on by {@code actor} (the user, or a service acting for
 * them). Served under {@code /v1/profile} and {@code /v1/users/{userId}/profile} by {@link ProfileResource}.
 */
public class ProfileOperations {

    private final String user;
    private final String actor;
    private final ProfileService profiles;
    private final ProfileImporter importer;
    private final PendingCandidates pending;
    private final ProfileMeters meters;
    private final ObjectMapper json;
    private RestConfig config;
    private ProfileTimeline timeline;

    ProfileOperations(String user, String actor, ProfileService profiles, ProfileImporter importer,
            PendingCandidates pending, ProfileMeters meters, ObjectMapper json) {
        this.meters = meters;
        this.json = json;
        this.user = user;
        this.actor = actor;
        this.profiles = profiles;
        this.importer = importer;
        this.pending = pending;
    }

    /**
     * The write's idempotency key with the digest of what it asks (operation, user, parsed body), or null without a
     * key. The same key with another request answers 422 (docs/http-api.md, "Idempotent writes").
     */
    private Idempotency idempotency(String key, String operation, Object body) {
        if (key == null) {
            return null;
        }
        try {
            return Idempotency.of(key, "profile " + operation, user, json.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The profile as of an instant ({@code asOf}, {@code diff}). */
    ProfileOperations timed(ProfileTimeline timeline) {
        this.timeline = timeline;
        return this;
    }

    /** The page sizes of the list endpoints. */
    ProfileOperations paged(RestConfig config) {
        this.config = config;
        return this;
    }

    @Operation(summary = "Read the profile", description = "The user's active long-term facts; with `asOf` (an ISO-8601 instant such as 2026-12-04T10:15:30Z) the facts valid at that instant, each with the period of its validity and the audit event that made it.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The active facts; with `asOf`, the profile as of that instant.", content = @Content(mediaType = "application/json", schema = @Schema(oneOf = {
            ProfileResponse.class, ProfileAsOf.class })))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @GET
    public Object profile(@QueryParam("asOf") String asOf) {
        if (asOf != null) {
            return timeline.asOf(user, Instants.parse("asOf", asOf));
        }
        return new ProfileResponse(user, profiles.activeFacts(user));
    }

    @Operation(summary = "Compare the profile at two instants", description = "The facts removed and added from `from` to `to` (ISO-8601 instants, `from` not after `to`), each with the audit event that did it (which session or call), and the audit events in between, oldest first (at most 1000; `moreEvents` when there were more).")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The changes between the two instants.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = ProfileDiff.class)))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @GET
    @Path("/diff")
    public ProfileDiff diff(@QueryParam("from") String from, @QueryParam("to") String to) {
        Instant start = Instants.parse("from", from);
        Instant end = Instants.parse("to", to);
        if (start.isAfter(end)) {
            throw new InvalidRequestException("to", "an instant not before from (" + start + ")");
        }
        return timeline.diff(user, start, end);
    }

    @Operation(summary = "Add a fact", description = "Adds one fact to the profile; answers 201 with the write result. A fact in an already-taken slot supersedes the old one."
            + ApiDocs.PROFILE_IDEMPOTENT)
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = ApiDocs.PROFILE_FULL, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "201", description = "The write result.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = WriteResult.class)))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @POST
    @Path("/facts")
    public Response add(@HeaderParam(SessionResource.IDEMPOTENCY_KEY) String key,
            @RequestBody(content = @Content(mediaType = "application/json", schema = @Schema(implementation = FactRequest.class), examples = @ExampleObject(name = "example", value = ApiDocs.FACT_EXAMPLE))) FactRequest request) {
        WriteResult result = meters.profileWrite("add", () -> profiles.add(user, actor,
                request == null ? null : request.toFact(), idempotency(key, "add", request)));
        return Response.status(Response.Status.CREATED).entity(result).build();
    }

    @Operation(summary = "Correct a fact", description = "Replaces the fact `id` with the corrected one; the old version stays in the history."
            + ApiDocs.PROFILE_IDEMPOTENT)
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = ApiDocs.FACT_NOT_FOUND, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = ApiDocs.PROFILE_FULL, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The write result.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = WriteResult.class)))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @PUT
    @Path("/facts/{id}")
    public WriteResult correct(@PathParam("id") long id, @HeaderParam(SessionResource.IDEMPOTENCY_KEY) String key,
            FactRequest request) {
        return meters.profileWrite("correct", () -> profiles.correct(user, actor, id,
                request == null ? null : request.toFact(), idempotency(key, "correct " + id, request)));
    }

    @Operation(summary = "Forget a fact", description = "Retires the fact `id`; it stays in the audit history only."
            + ApiDocs.PROFILE_IDEMPOTENT)
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = ApiDocs.FACT_NOT_FOUND, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The write result.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = WriteResult.class)))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @DELETE
    @Path("/facts/{id}")
    public WriteResult forget(@PathParam("id") long id, @HeaderParam(SessionResource.IDEMPOTENCY_KEY) String key) {
        return meters.profileWrite("forget", () -> profiles.forget(user, actor, id, idempotency(key, "forget " + id, null)));
    }

    @Operation(summary = "Apply a natural-language instruction", description = "Turns an instruction such as \"forget that I live in Paris\" into profile writes."
            + ApiDocs.PROFILE_IDEMPOTENT)
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = ApiDocs.PROFILE_FULL, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The write result.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = WriteResult.class)))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @POST
    @Path("/instruct")
    public WriteResult instruct(@HeaderParam(SessionResource.IDEMPOTENCY_KEY) String key, InstructRequest request) {
        return meters.profileWrite("instruct", () -> profiles.instruct(user, actor,
                request == null ? null : request.instruction(), idempotency(key, "instruct", request)));
    }

    @Operation(summary = "Import facts from text", description = "Extracts facts from free text and writes them to the profile."
            + ApiDocs.PROFILE_IDEMPOTENT)
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = ApiDocs.PROFILE_FULL, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The write result.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = WriteResult.class)))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @POST
    @Path("/import")
    public WriteResult importText(@HeaderParam(SessionResource.IDEMPOTENCY_KEY) String key, ImportRequest request) {
        return meters.profileWrite("import", () -> importer.importText(user, actor,
                request == null ? null : request.text(), idempotency(key, "import", request)));
    }

    @Operation(summary = "Read the profile history", description = "Every change of the user's profile, oldest first, with its actor.")
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The profile history.", headers = {
            @Header(name = "Mnemos-Next-Cursor", description = ApiDocs.NEXT_CURSOR, schema = @Schema(type = SchemaType.STRING)),
            @Header(name = "Link", description = ApiDocs.NEXT_LINK, schema = @Schema(type = SchemaType.STRING)) }, content = @Content(mediaType = "application/json", schema = @Schema(implementation = HistoryResponse.class)))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @GET
    @Path("/history")
    public Response history(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @Context UriInfo uri) {
        int size = Pages.limit(limit, config);
        long before = cursor == null ? Long.MAX_VALUE : Pages.number(cursor, "history");
        List<HistoryEntry> events = profiles.history(user, before, size + 1);
        Long next = events.size() > size ? events.get(size - 1).id() : null;
        return Pages.page(new HistoryResponse(user, next == null ? events : events.subList(0, size)), "history", next, uri);
    }

    @Operation(summary = "List pending candidates", description = "Observations promotion left PENDING, awaiting the user's confirmation.")
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The pending candidates.", headers = {
            @Header(name = "Mnemos-Next-Cursor", description = ApiDocs.NEXT_CURSOR, schema = @Schema(type = SchemaType.STRING)),
            @Header(name = "Link", description = ApiDocs.NEXT_LINK, schema = @Schema(type = SchemaType.STRING)) }, content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.ARRAY, implementation = PendingCandidate.class)))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @GET
    @Path("/pending")
    public Response pending(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @Context UriInfo uri) {
        int size = Pages.limit(limit, config);
        long after = cursor == null ? 0 : Pages.number(cursor, "pending");
        List<PendingCandidate> page = pending.list(user, after, size + 1);
        Long next = page.size() > size ? page.get(size - 1).id() : null;
        return Pages.page(next == null ? page : page.subList(0, size), "pending", next, uri);
    }

    @Operation(summary = "Confirm a pending candidate", description = "Writes the candidate `id` to the profile.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = ApiDocs.CANDIDATE_NOT_FOUND, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "409", description = ApiDocs.PROFILE_FULL, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The decision.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = PendingDecision.class)))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @POST
    @Path("/pending/{id}/confirm")
    public PendingDecision confirm(@PathParam("id") long id) {
        return meters.profileWrite("confirm", () -> pending.confirm(user, id, actor));
    }

    @Operation(summary = "Reject a pending candidate", description = "Discards the candidate `id`; it is never proposed again.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "404", description = ApiDocs.CANDIDATE_NOT_FOUND, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @APIResponse(responseCode = "200", description = "The decision.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = PendingDecision.class)))
    @APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
    @POST
    @Path("/pending/{id}/reject")
    public PendingDecision reject(@PathParam("id") long id) {
        return meters.profileWrite("reject", () -> pending.reject(user, id, actor));
    }
}

package dev.mnemos.rest;

import dev.mnemos.app.Actor;
import dev.mnemos.app.Page;
import dev.mnemos.app.SessionService;
import dev.mnemos.app.SessionVersionEntry;
import dev.mnemos.app.SessionWriteResult;
import dev.mnemos.injection.StepWriteMeters;
import dev.mnemos.session.PlanPage;
import dev.mnemos.session.Rollback;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionPage;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
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

import java.net.URI;
import java.util.OptionalLong;

/**
 * Session memory over HTTP (docs/http-api.md): parses each request, hands it to {@link SessionService} with the
 * caller as {@link Caller} authenticated it, and shapes the answer (status, Location, paging headers). Another user's
 * session answers 404.
 */
@Path("/v1")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "503", description = ApiDocs.REDIS_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class), examples = @ExampleObject(name = "example", value = ApiDocs.UNAVAILABLE_EXAMPLE)))
public class SessionResource {

    /** The request header that makes a write safe to retry (docs/http-api.md, "Idempotent writes"). */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final int MAX_PAGE = 1000;
    /** Plan versions a read shows unless {@code ?plans=} says otherwise: the newest ones; older ones are paged. */
    static final int DEFAULT_PLANS = 10;

    private final SessionService sessions;
    private final Caller caller;
    private final StepWriteMeters meters;
    private final RestConfig config;

    public SessionResource(SessionService sessions, Caller caller, StepWriteMeters meters, RestConfig config) {
        this.sessions = sessions;
        this.caller = caller;
        this.meters = meters;
        this.config = config;
    }

    @Operation(summary = "Start a session", description = "Creates a live session for the caller with an optional goal, context and constraints. Answers 201 with the new session state (version 1) and its Location.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "201", description = "The new session (version 1); Location names it.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionState.class)))
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED)
    @APIResponse(responseCode = "409", description = ApiDocs.KEY_ENDED)
    @APIResponse(responseCode = "429", description = ApiDocs.TOO_MANY_SESSIONS)
    @POST
    @Path("/sessions")
    public Response create(@HeaderParam(IDEMPOTENCY_KEY) String key,
            @RequestBody(content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionRequests.Create.class), examples = @ExampleObject(name = "example", value = ApiDocs.CREATE_EXAMPLE))) SessionRequests.Create body) {
        return created(caller.userId(), body, key);
    }

    @Operation(summary = "Start a session for a user (service token)", description = "A service token starts a live session on behalf of `userId`; the audit trail names the service as the actor.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER)
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "201", description = "The new session (version 1); Location names it.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionState.class)))
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED)
    @APIResponse(responseCode = "409", description = ApiDocs.KEY_ENDED)
    @APIResponse(responseCode = "429", description = ApiDocs.TOO_MANY_SESSIONS)
    @POST
    @Path("/users/{userId}/sessions")
    public Response createFor(@PathParam("userId") String userId, @HeaderParam(IDEMPOTENCY_KEY) String key,
            SessionRequests.Create body) {
        return created(caller.actFor(userId), body, key);
    }

    @Operation(summary = "List my live sessions", description = "Ids of the caller's sessions that have not ended and not expired.")
    @APIResponse(responseCode = "200", description = "Ids of the live sessions.", headers = {
            @Header(name = "Mnemos-Next-Cursor", description = ApiDocs.NEXT_CURSOR, schema = @Schema(type = SchemaType.STRING)),
            @Header(name = "Link", description = ApiDocs.NEXT_LINK, schema = @Schema(type = SchemaType.STRING)) }, content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.ARRAY, implementation = String.class)))
    @GET
    @Path("/sessions")
    public Response live(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @Context UriInfo uri) {
        return sessionsOf(caller.userId(), limit, cursor, uri);
    }

    @Operation(summary = "List a user's live sessions (service token)", description = "Ids of the live sessions of `userId`.")
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER)
    @APIResponse(responseCode = "200", description = "Ids of the live sessions.", headers = {
            @Header(name = "Mnemos-Next-Cursor", description = ApiDocs.NEXT_CURSOR, schema = @Schema(type = SchemaType.STRING)),
            @Header(name = "Link", description = ApiDocs.NEXT_LINK, schema = @Schema(type = SchemaType.STRING)) }, content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.ARRAY, implementation = String.class)))
    @GET
    @Path("/users/{userId}/sessions")
    public Response liveOf(@PathParam("userId") String userId, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor, @Context UriInfo uri) {
        return sessionsOf(caller.actFor(userId), limit, cursor, uri);
    }

    private Response sessionsOf(String userId, String limit, String cursor, UriInfo uri) {
        int size = Pages.limit(limit, config);
        SessionPage page;
        try {
            page = sessions.live(userId, Pages.position(cursor, "sessions"), size);
        } catch (IllegalArgumentException e) {
            throw Pages.badCursor();
        }
        return Pages.page(page.ids(), "sessions", page.next(), uri);
    }

    @Operation(summary = "Read a session", description = "The current state of a session: goal, context, constraints, plan, collected facts, open questions, observations and version. `plans` holds the newest 10 plan versions unless `?plans=` asks for another number (0 to 1000) or `all`; older ones are paged by `GET /v1/sessions/{id}/plans`.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.SESSION_NOT_FOUND)
    @APIResponse(responseCode = "200", description = "The current session state.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionState.class)))
    @GET
    @Path("/sessions/{id}")
    public Uni<SessionState> get(@PathParam("id") String id, @QueryParam("plans") String plans) {
        int shown = plansShown(plans);
        return sessions.readAsync(caller.sessionUser(), id, shown);
    }

    @Operation(summary = "List plan versions", description = "A page of the current state's plan versions from plan version `from` (default 1), at most `limit` (1 to 1000, default 100), oldest first, with the total and the `next` page's first version.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.SESSION_NOT_FOUND)
    @APIResponse(responseCode = "200", description = "The page of plan versions.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = PlanPage.class)))
    @GET
    @Path("/sessions/{id}/plans")
    public PlanPage plans(@PathParam("id") String id, @QueryParam("from") @DefaultValue("1") int from,
            @QueryParam("limit") @DefaultValue("100") int limit) {
        if (from < 1) {
            throw new InvalidRequestException("from", "a plan version of 1 or more, got " + from);
        }
        if (limit < 1 || limit > MAX_PAGE) {
            throw new InvalidRequestException("limit", "a page size from 1 to " + MAX_PAGE);
        }
        return sessions.plans(caller.sessionUser(), id, from, limit);
    }

    @Operation(summary = "Write a step", description = "Applies a patch to the session as one new version. With `expectedVersion` it is a compare-and-set: a different current version answers 409 and nothing is written. Send an `Idempotency-Key` to make retries safe: a repeat answers the first result and writes nothing. Redis unreachable or slow answers 503 with Retry-After (see its detail for whether the write may have been applied).")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.SESSION_NOT_FOUND)
    @APIResponse(responseCode = "409", description = ApiDocs.STALE, content = @Content(mediaType = ApiDocs.PROBLEM, examples = @ExampleObject(name = "example", value = ApiDocs.CONFLICT_EXAMPLE)))
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "200", description = "The version the step wrote.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionWriteResult.class)))
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED)
    @POST
    @Path("/sessions/{id}/steps")
    public Uni<SessionWriteResult> step(@PathParam("id") String id, @HeaderParam(IDEMPOTENCY_KEY) String key,
            @RequestBody(content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionRequests.Step.class), examples = @ExampleObject(name = "example", value = ApiDocs.STEP_EXAMPLE))) SessionRequests.Step body) {
        if (body == null || body.patch() == null) {
            throw new InvalidRequestException("patch", "an object with at least one change");
        }
        OptionalLong expected = optional("expectedVersion", body.expectedVersion());
        // on the event loop: the write is one script sent without blocking (no worker thread hop)
        return meters.rest(sessions.stepAsync(actor(), id, body.patch(), expected, body.note(), key, body))
                .map(version -> new SessionWriteResult(id, version));
    }

    @Operation(summary = "Record an observation", description = "Adds one candidate preference or fact observed during the task; promotion to the profile is decided when the session ends.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.SESSION_NOT_FOUND)
    @APIResponse(responseCode = "409", description = ApiDocs.ENDED)
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "200", description = "The version the observation wrote.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionWriteResult.class)))
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED)
    @POST
    @Path("/sessions/{id}/observations")
    public SessionWriteResult observe(@PathParam("id") String id, @HeaderParam(IDEMPOTENCY_KEY) String key,
            SessionRequests.NewObservation body) {
        if (body == null) {
            throw new InvalidRequestException("text", "an observation with a non-blank text");
        }
        return new SessionWriteResult(id, sessions.observe(actor(), id, body.observation(), key, body));
    }

    @Operation(summary = "List versions", description = "One line per version from `from` (default 1), at most `limit` (1 to 1000, default 100).")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.SESSION_NOT_FOUND)
    @APIResponse(responseCode = "410", description = ApiDocs.GONE)
    @APIResponse(responseCode = "200", description = "The page of versions.", headers = {
            @Header(name = "Mnemos-Next-Cursor", description = ApiDocs.NEXT_CURSOR, schema = @Schema(type = SchemaType.STRING)),
            @Header(name = "Link", description = ApiDocs.NEXT_LINK, schema = @Schema(type = SchemaType.STRING)) }, content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.ARRAY, implementation = SessionVersionEntry.class)))
    @GET
    @Path("/sessions/{id}/versions")
    public Response versions(@PathParam("id") String id,
            @QueryParam("from") @DefaultValue("1") long from,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor, @Context UriInfo uri) {
        Page<SessionVersionEntry> page = sessions.versions(caller.sessionUser(), id, start(from, cursor, "versions"),
                Pages.limit(limit, config));
        return Pages.page(page.items(), "versions", page.next(), uri);
    }

    @Operation(summary = "Read a past version", description = "The session state as it was at `version`, rebuilt from its nearest checkpoint and event history; `plans` as in `GET /v1/sessions/{id}` (newest 10 unless `?plans=`).")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.VERSION_NOT_FOUND)
    @APIResponse(responseCode = "410", description = ApiDocs.GONE)
    @APIResponse(responseCode = "200", description = "The state at that version.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionState.class)))
    @GET
    @Path("/sessions/{id}/versions/{version}")
    public SessionState version(@PathParam("id") String id, @PathParam("version") long version,
            @QueryParam("plans") String plans) {
        positive("version", version);
        return sessions.version(caller.sessionUser(), id, version, plansShown(plans));
    }

    @Operation(summary = "List events", description = "The session's event log from `from`, at most `limit` (1 to 1000) events.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.SESSION_NOT_FOUND)
    @APIResponse(responseCode = "410", description = ApiDocs.GONE)
    @APIResponse(responseCode = "200", description = "The page of events.", headers = {
            @Header(name = "Mnemos-Next-Cursor", description = ApiDocs.NEXT_CURSOR, schema = @Schema(type = SchemaType.STRING)),
            @Header(name = "Link", description = ApiDocs.NEXT_LINK, schema = @Schema(type = SchemaType.STRING)) }, content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.ARRAY, implementation = SessionEvent.class)))
    @GET
    @Path("/sessions/{id}/events")
    public Response events(@PathParam("id") String id,
            @QueryParam("from") @DefaultValue("1") long from,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor, @Context UriInfo uri) {
        Page<SessionEvent> page = sessions.events(caller.sessionUser(), id, start(from, cursor, "events"),
                Pages.limit(limit, config));
        return Pages.page(page.items(), "events", page.next(), uri);
    }

    /** The first version of a page of the log: {@code from}, or the cursor's version. */
    private static long start(long from, String cursor, String kind) {
        positive("from", from);
        long start = cursor == null ? from : Pages.number(cursor, kind);
        if (start < 1) {
            throw Pages.badCursor();
        }
        return start;
    }

    @Operation(summary = "Roll back", description = "Writes a new version whose state equals `toVersion`; with `expectedVersion` it is a compare-and-set (409 on a stale version).")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.VERSION_NOT_FOUND)
    @APIResponse(responseCode = "409", description = ApiDocs.STALE, content = @Content(mediaType = ApiDocs.PROBLEM, examples = @ExampleObject(name = "example", value = ApiDocs.CONFLICT_EXAMPLE)))
    @APIResponse(responseCode = "410", description = ApiDocs.GONE)
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "200", description = "The new state, equal to the target version's.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionState.class)))
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED)
    @POST
    @Path("/sessions/{id}/rollback")
    public SessionState rollback(@PathParam("id") String id, @HeaderParam(IDEMPOTENCY_KEY) String key,
            SessionRequests.Rollback body) {
        if (body == null || body.toVersion() == null) {
            throw new InvalidRequestException("toVersion", "the version to roll back to, 1 or more");
        }
        positive("toVersion", body.toVersion());
        OptionalLong expected = optional("expectedVersion", body.expectedVersion());
        return sessions.rollback(actor(), id, body.toVersion(), expected, key, body);
    }

    @Operation(summary = "Fork a session", description = "Creates a new live session from the state at `fromVersion`; answers 201 with the fork and its Location.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.VERSION_NOT_FOUND)
    @APIResponse(responseCode = "410", description = ApiDocs.GONE)
    @APIResponse(responseCode = "413", description = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "201", description = "The fork (a new session); Location names it.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = SessionState.class)))
    @APIResponse(responseCode = "422", description = ApiDocs.KEY_REUSED)
    @APIResponse(responseCode = "409", description = ApiDocs.KEY_ENDED)
    @APIResponse(responseCode = "429", description = ApiDocs.TOO_MANY_SESSIONS)
    @POST
    @Path("/sessions/{id}/fork")
    public Response fork(@PathParam("id") String id, @HeaderParam(IDEMPOTENCY_KEY) String key,
            SessionRequests.Fork body) {
        if (body == null || body.fromVersion() == null) {
            throw new InvalidRequestException("fromVersion", "the version to fork from, 1 or more");
        }
        positive("fromVersion", body.fromVersion());
        SessionState fork = sessions.fork(actor(), id, body.fromVersion(), key, body);
        return Response.created(URI.create("/v1/sessions/" + fork.sessionId())).entity(fork).build();
    }

    @Operation(summary = "Delete a session", description = "Removes a live session and its history without promoting anything. Answers 204.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.SESSION_NOT_FOUND)
    @APIResponse(responseCode = "204", description = "Deleted.")
    @DELETE
    @Path("/sessions/{id}")
    public Response delete(@PathParam("id") String id) {
        sessions.delete(caller.sessionUser(), id);
        return Response.noContent().build();
    }

    private Response created(String userId, SessionRequests.Create body, String key) {
        SessionPatch patch = body == null ? null : body.patch();
        SessionState state = sessions.create(new Actor(userId, caller.userId()), patch, key, body);
        return Response.created(URI.create("/v1/sessions/" + state.sessionId())).entity(state).build();
    }

    /** The sessions this request may touch, written in the caller's name. */
    private Actor actor() {
        return new Actor(caller.sessionUser(), caller.userId());
    }

    /** The plan versions a read shows: {@code all} (-1), a count from 0 to 1000, or by default {@link #DEFAULT_PLANS}. */
    private static int plansShown(String plans) {
        if (plans == null || plans.isBlank()) {
            return DEFAULT_PLANS;
        }
        if (plans.equals("all")) {
            return -1;
        }
        try {
            int shown = Integer.parseInt(plans);
            if (shown >= 0 && shown <= MAX_PAGE) {
                return shown;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InvalidRequestException("plans", "\"all\" or a number of plan versions from 0 to " + MAX_PAGE);
    }

    private static OptionalLong optional(String field, Long version) {
        if (version == null) {
            return OptionalLong.empty();
        }
        positive(field, version);
        return OptionalLong.of(version);
    }

    private static void positive(String field, long value) {
        if (value < 1) {
            throw new InvalidRequestException(field, "a version of 1 or more, got " + value);
        }
    }
}

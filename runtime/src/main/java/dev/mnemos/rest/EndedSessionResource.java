package dev.mnemos.rest;

import dev.mnemos.archive.EndedSessionList;
import dev.mnemos.archive.EndedSessions;
import dev.mnemos.promotion.PromotionReport;
import dev.mnemos.session.SessionIds;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.util.Optional;

/**
 * Ended sessions, read from the archive: {@code GET /v1/sessions/ended} lists the caller's (newest
 * first, a page at a time: {@code limit}, {@code cursor}, and the next page's cursor in the
 * {@value #NEXT_CURSOR} header), {@code GET /v1/sessions/{id}/report} answers the promotion report
 * stored when the session ended. Another user's session answers 404, as a missing one does.
 */
@Path("/v1")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
public class EndedSessionResource {

    /** The response header naming the next page's cursor; absent on the last page. */
    public static final String NEXT_CURSOR = "Mnemos-Next-Cursor";
    private static final int MAX_PAGE = 100;

    private final EndedSessionList list;
    private final EndedSessions archive;
    private final Caller caller;

    public EndedSessionResource(EndedSessionList list, EndedSessions archive, Caller caller) {
        this.list = list;
        this.archive = archive;
        this.caller = caller;
    }

    @Operation(summary = "List my ended sessions", description = "The caller's archived sessions, newest first: id, end time and goal. At most `limit` (1 to 100, default 20); when more exist the `Mnemos-Next-Cursor` header names the `cursor` of the next page.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "200", description = "A page of ended sessions.", headers = @Header(name = NEXT_CURSOR, description = "The cursor of the next page; absent on the last page", schema = @Schema(type = SchemaType.STRING)), content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.ARRAY, implementation = EndedSessionList.Entry.class)))
    @GET
    @Path("/sessions/ended")
    public Response ended(@QueryParam("limit") @DefaultValue("20") int limit, @QueryParam("cursor") String cursor) {
        return page(caller.userId(), limit, cursor);
    }

    @Operation(summary = "List a user's ended sessions (service token)", description = "As `GET /v1/sessions/ended`, for `userId`.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.FORBIDDEN_USER)
    @APIResponse(responseCode = "200", description = "A page of ended sessions.", headers = @Header(name = NEXT_CURSOR, description = "The cursor of the next page; absent on the last page", schema = @Schema(type = SchemaType.STRING)), content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.ARRAY, implementation = EndedSessionList.Entry.class)))
    @GET
    @Path("/users/{userId}/sessions/ended")
    public Response endedOf(@PathParam("userId") String userId, @QueryParam("limit") @DefaultValue("20") int limit,
            @QueryParam("cursor") String cursor) {
        return page(caller.actFor(userId), limit, cursor);
    }

    @Operation(summary = "Read an ended session's promotion report", description = "The report answered when the session ended: each candidate promoted, left pending or rejected, with its reason. 404 while the session is live, and for another user's session.")
    @APIResponse(responseCode = "400", description = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "404", description = ApiDocs.SESSION_NOT_FOUND)
    @APIResponse(responseCode = "200", description = "The promotion report.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = PromotionReport.class)))
    @GET
    @Path("/sessions/{id}/report")
    public PromotionReport report(@PathParam("id") String id) {
        SessionIds.require("sessionId", id);
        caller.requireAccess(archive.owner(id).orElseThrow(NotFoundException::new));
        return archive.report(id, PromotionReport.class).orElseThrow(NotFoundException::new);
    }

    private Response page(String userId, int limit, String cursor) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new InvalidRequestException("limit", "a page size from 1 to " + MAX_PAGE);
        }
        Optional<EndedSessionList.Cursor> after = Optional.empty();
        if (cursor != null && !cursor.isEmpty()) {
            after = Optional.of(EndedSessionList.Cursor.decode(cursor)
                    .orElseThrow(() -> new InvalidRequestException("cursor", "a cursor from the Mnemos-Next-Cursor header")));
        }
        EndedSessionList.Page page = list.page(userId, after, limit);
        Response.ResponseBuilder answer = Response.ok(page.entries());
        page.nextCursor().ifPresent(next -> answer.header(NEXT_CURSOR, next));
        return answer.build();
    }
}

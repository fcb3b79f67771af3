package dev.mnemos.rest;

import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionHistory;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.quarkus.security.Authenticated;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.util.List;
import java.util.OptionalLong;

/** Session memory over HTTP (DESIGN.md section 8). Another user's session answers 404. */
@Path("/v1")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class SessionResource {

    private static final int MAX_PAGE = 1000;

    private final SessionStore store;
    private final SessionHistory history;
    private final Caller caller;

    public SessionResource(SessionStore store, SessionHistory history, Caller caller) {
        this.store = store;
        this.history = history;
        this.caller = caller;
    }

    @POST
    @Path("/sessions")
    public Response create(SessionRequests.Create body) {
        return created(caller.userId(), body);
    }

    @POST
    @Path("/users/{userId}/sessions")
    public Response createFor(@PathParam("userId") String userId, SessionRequests.Create body) {
        return created(caller.actFor(userId), body);
    }

    @GET
    @Path("/sessions")
    public List<String> live() {
        return store.liveSessions(caller.userId());
    }

    @GET
    @Path("/users/{userId}/sessions")
    public List<String> liveOf(@PathParam("userId") String userId) {
        return store.liveSessions(caller.actFor(userId));
    }

    @GET
    @Path("/sessions/{id}")
    public SessionState get(@PathParam("id") String id) {
        return store.get(owned(id));
    }

    @POST
    @Path("/sessions/{id}/steps")
    public SessionRequests.Written step(@PathParam("id") String id, SessionRequests.Step body) {
        if (body == null || body.patch() == null) {
            throw new InvalidRequestException("patch", "an object with at least one change");
        }
        SessionIds.require("sessionId", id);
        String owner = caller.isService() ? null : caller.userId();
        long version = store.write(id, owner, body.patch(), optional("expectedVersion", body.expectedVersion()),
                body.note(), caller.userId());
        return new SessionRequests.Written(id, version);
    }

    @POST
    @Path("/sessions/{id}/observations")
    public SessionRequests.Written observe(@PathParam("id") String id, SessionRequests.NewObservation body) {
        if (body == null) {
            throw new InvalidRequestException("text", "an observation with a non-blank text");
        }
        SessionPatch patch = SessionPatch.builder().addObservation(body.observation()).build();
        long version = store.write(owned(id), patch, OptionalLong.empty(), "observation", caller.userId());
        return new SessionRequests.Written(id, version);
    }

    @GET
    @Path("/sessions/{id}/versions")
    public List<SessionRequests.VersionEntry> versions(@PathParam("id") String id,
                                                      @QueryParam("from") @DefaultValue("1") long from,
                                                      @QueryParam("limit") @DefaultValue("100") int limit) {
        return events(id, from, limit).stream().map(e -> new SessionRequests.VersionEntry(e.version(), e.type(),
                e.at(), e.actor(), e.note(), e.toVersion())).toList();
    }

    @GET
    @Path("/sessions/{id}/versions/{version}")
    public SessionState version(@PathParam("id") String id, @PathParam("version") long version) {
        positive("version", version);
        return history.at(owned(id), version);
    }

    @GET
    @Path("/sessions/{id}/events")
    public List<SessionEvent> events(@PathParam("id") String id,
                                     @QueryParam("from") @DefaultValue("1") long from,
                                     @QueryParam("limit") @DefaultValue("100") int limit) {
        positive("from", from);
        if (limit < 1 || limit > MAX_PAGE) {
            throw new InvalidRequestException("limit", "a page size from 1 to " + MAX_PAGE);
        }
        return history.events(owned(id), from, limit);
    }

    @POST
    @Path("/sessions/{id}/rollback")
    public SessionState rollback(@PathParam("id") String id, SessionRequests.Rollback body) {
        if (body == null || body.toVersion() == null) {
            throw new InvalidRequestException("toVersion", "the version to roll back to, 1 or more");
        }
        positive("toVersion", body.toVersion());
        return store.rollback(owned(id), body.toVersion(), optional("expectedVersion", body.expectedVersion()),
                caller.userId());
    }

    @POST
    @Path("/sessions/{id}/fork")
    public Response fork(@PathParam("id") String id, SessionRequests.Fork body) {
        if (body == null || body.fromVersion() == null) {
            throw new InvalidRequestException("fromVersion", "the version to fork from, 1 or more");
        }
        positive("fromVersion", body.fromVersion());
        SessionState fork = store.fork(owned(id), body.fromVersion(), caller.userId());
        return Response.created(URI.create("/v1/sessions/" + fork.sessionId())).entity(fork).build();
    }

    @DELETE
    @Path("/sessions/{id}")
    public Response delete(@PathParam("id") String id) {
        store.delete(owned(id));
        return Response.noContent().build();
    }

    private Response created(String userId, SessionRequests.Create body) {
        SessionPatch patch = body == null ? null : body.patch();
        SessionState state = store.create(userId, patch, caller.userId());
        return Response.created(URI.create("/v1/sessions/" + state.sessionId())).entity(state).build();
    }

    /** The session id, once the caller is known to own it (or act as a service); else 404. */
    private String owned(String id) {
        SessionIds.require("sessionId", id);
        caller.requireAccess(history.owner(id));
        return id;
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

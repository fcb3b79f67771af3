package org.acme.trips;

import dev.mnemos.injection.ActingAs;
import dev.mnemos.injection.ActingUserUnknownException;
import dev.mnemos.session.SessionNotFoundException;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.PreDestroy;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.context.ManagedExecutor;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;

/**
 * The planner's chat, answered on another thread than the request's, the ways an application hops threads: the common
 * pool, a thread of its own, a pool of its own (none carries the request's identity), the {@link ManagedExecutor}
 * (which does), and the common pool with the acting user named ({@link ActingAs}).
 */
@Path("/hops/{sessionId}")
@Consumes(MediaType.TEXT_PLAIN)
@Produces(MediaType.TEXT_PLAIN)
public class HopResource {

    private final TripPlanner planner;
    private final ManagedExecutor managed;
    private final SecurityIdentity identity;
    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    public HopResource(TripPlanner planner, ManagedExecutor managed, SecurityIdentity identity) {
        this.planner = planner;
        this.managed = managed;
        this.identity = identity;
    }

    @POST
    @Path("/common-pool")
    public Response commonPool(@PathParam("sessionId") String sessionId, String question) {
        return answer(() -> CompletableFuture.supplyAsync(() -> planner.suggest(sessionId, question)).get());
    }

    @POST
    @Path("/thread")
    public Response thread(@PathParam("sessionId") String sessionId, String question) {
        FutureTask<String> task = new FutureTask<>(() -> planner.suggest(sessionId, question));
        new Thread(task, "trip-hop").start();
        return answer(task::get);
    }

    @POST
    @Path("/pool")
    public Response pool(@PathParam("sessionId") String sessionId, String question) {
        return answer(() -> pool.submit(() -> planner.suggest(sessionId, question)).get());
    }

    @POST
    @Path("/managed")
    public Response managed(@PathParam("sessionId") String sessionId, String question) {
        return answer(() -> managed.supplyAsync(() -> planner.suggest(sessionId, question)).get());
    }

    @POST
    @Path("/named")
    public Response named(@PathParam("sessionId") String sessionId, String question) {
        String me = identity.getPrincipal().getName();
        return answer(() -> CompletableFuture
                .supplyAsync(() -> ActingAs.user(me).call(() -> planner.suggest(sessionId, question))).get());
    }

    @PreDestroy
    void close() {
        pool.shutdownNow();
    }

    /**
     * The answer; 403 with Mnemos' explanation when it could not tell who the call acts for; 404 for a session the
     * acting user does not own.
     */
    private static Response answer(Callable<String> call) {
        try {
            return Response.ok(call.call()).build();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ActingUserUnknownException unknown) {
                return Response.status(Response.Status.FORBIDDEN).entity(unknown.getMessage()).build();
            }
            if (e.getCause() instanceof SessionNotFoundException) {
                return Response.status(Response.Status.NOT_FOUND).build();
            }
            throw new IllegalStateException(e.getCause());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

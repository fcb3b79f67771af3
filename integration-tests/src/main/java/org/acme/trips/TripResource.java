package org.acme.trips;

import io.smallrye.mutiny.Multi;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestStreamElementType;

/** The application's own endpoints. */
@Path("/trips/{id}")
public class TripResource {

    private final TripPlanner planner;
    private final TripBreakdown breakdown;

    public TripResource(TripPlanner planner, TripBreakdown breakdown) {
        this.planner = planner;
        this.breakdown = breakdown;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Trip get(@PathParam("id") String id) {
        Trip trip = Trip.findById(id);
        if (trip == null) {
            throw new NotFoundException("no trip " + id);
        }
        return trip;
    }

    /** Asks the planner about a trip; the trip's session is started by the first question. */
    @POST
    @Path("/questions")
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.TEXT_PLAIN)
    public String ask(@PathParam("id") String id, String question) {
        return planner.suggest("trip-" + get(id).id, question);
    }

    /**
     * Asks the planner and streams its answer as server-sent events. The method returns a {@code Multi}, so Quarkus REST
     * runs it on the event loop: it does no blocking lookup of its own.
     */
    @POST
    @Path("/questions/stream")
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.TEXT_PLAIN)
    public Multi<String> askStreamed(@PathParam("id") String id, String question) {
        return planner.stream("trip-" + id, question);
    }

    /** Breaks the trip into steps with the draft-then-review workflow; each agent is a step of the trip's session. */
    @POST
    @Path("/breakdown")
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.TEXT_PLAIN)
    public String breakDown(@PathParam("id") String id, String request) {
        return breakdown.breakDown("trip-" + get(id).id, request);
    }
}

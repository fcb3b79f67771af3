package org.acme.trips;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The application's own endpoints. */
@Path("/trips/{id}")
public class TripResource {

    private final TripPlanner planner;

    public TripResource(TripPlanner planner) {
        this.planner = planner;
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
}

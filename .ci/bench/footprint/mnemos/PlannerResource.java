package org.acme;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

@Path("/")
public class PlannerResource {

    private final Planner planner;

    public PlannerResource(Planner planner) {
        this.planner = planner;
    }

    @GET
    @Path("ping")
    public String ping() {
        return "pong";
    }

    @POST
    @Path("trips/{id}")
    public String suggest(@PathParam("id") String id, String request) {
        return planner.suggest(id, request);
    }
}

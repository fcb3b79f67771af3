package org.acme.trips;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The planner's chat, open to every caller: signed-in travellers and anonymous visitors alike. */
@Path("/chat/{sessionId}")
public class ChatResource {

    private final TripPlanner planner;
    private final TripWeather weather;

    public ChatResource(TripPlanner planner, TripWeather weather) {
        this.planner = planner;
        this.weather = weather;
    }

    @POST
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.TEXT_PLAIN)
    public String ask(@PathParam("sessionId") String sessionId, String question) {
        return planner.suggest(sessionId, question);
    }

    /** The same chat, answered after the model checked forecasts with the application's tool. */
    @POST
    @Path("/weather")
    @Consumes(MediaType.TEXT_PLAIN)
    @Produces(MediaType.TEXT_PLAIN)
    public String weather(@PathParam("sessionId") String sessionId, String question) {
        return weather.advise(sessionId, question);
    }
}

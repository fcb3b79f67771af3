package org.acme.trips;

import dev.langchain4j.agent.tool.Tool;
import jakarta.enterprise.context.ApplicationScoped;

/** The application's tool: a forecast per city. It knows no forecast for a city that does not exist. */
@ApplicationScoped
public class WeatherTools {

    static final String NOWHERE = "Atlantis";

    @Tool("The weather forecast for a city")
    public String forecast(String city) {
        if (NOWHERE.equals(city)) {
            throw new IllegalArgumentException("no forecast for " + city);
        }
        return "Sunny and 24°C in " + city;
    }
}

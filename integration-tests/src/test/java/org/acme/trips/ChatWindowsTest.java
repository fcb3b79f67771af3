package org.acme.trips;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.session.Fork;
import dev.mnemos.session.Rollback;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two AI services on one session: each keeps its own chat window (quarkus.mnemos.injection.chat-window's default),
 * and a stored answer reaches a prompt once. A rollback takes the windows back with the state, a fork starts with them.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
class ChatWindowsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    TripPlanner planner;
    @Inject
    TripWeather weather;
    @Inject
    SessionStore sessions;

    @Test
    void aSecondServiceOnTheSessionDoesNotReceiveTheFirstServicesTurns() throws Exception {
        String id = "trip-" + UUID.randomUUID();
        planner.suggest(id, "Plan a week in Crete");
        int before = OpenAiStub.bodies().size();

        weather.advise(id, "Will it rain?");
        planner.suggest(id, "And the second week?");

        List<String> bodies = Bodies.since(before);
        List<String> weatherTurns = userTurns(bodies.get(0));
        List<String> plannerTurns = userTurns(bodies.get(bodies.size() - 1));
        assertThat(weatherTurns).containsExactly("Will it rain?");
        assertThat(plannerTurns).containsExactly("Plan a week in Crete", "And the second week?");
    }

    @Test
    void anEarlierAnswerReachesThePromptOnce() throws Exception {
        String id = "trip-" + UUID.randomUUID();
        planner.suggest(id, "Plan a week in Crete");
        int before = OpenAiStub.bodies().size();

        planner.suggest(id, "And the second week?");

        String body = Bodies.since(before).get(0);
        assertThat(copies(body, OpenAiStub.ANSWER)).isEqualTo(1);
        assertThat(systemMessage(body)).contains("\"answer.suggest\": (in the conversation above)");
    }

    @Test
    void aPlanStepsAnswerReachesThePromptOnce() throws Exception {
        String id = "trip-" + UUID.randomUUID();
        planner.itinerary(id, "Three days in Lisbon");
        int before = OpenAiStub.bodies().size();

        planner.itinerary(id, "Make day two slower");

        String body = Bodies.since(before).get(0);
        assertThat(copies(body, OpenAiStub.ANSWER)).isEqualTo(1);
        assertThat(systemMessage(body)).contains("plan v1 (latest): (in the conversation above)")
                .contains("\"answer.itinerary\": (plan v1 above)");
    }

    @Test
    void aRollbackTakesTheChatWindowBackAndAForkStartsWithItsVersionsWindow() throws Exception {
        String id = "trip-" + UUID.randomUUID();
        planner.suggest(id, "Plan a week in Crete");
        long afterFirst = sessions.get(id).version();
        planner.suggest(id, "Add a day in Chania");
        long afterSecond = sessions.get(id).version();
        planner.suggest(id, "Add a boat trip");
        long afterThird = sessions.get(id).version();

        sessions.rollback(Rollback.of(id, afterFirst).by("test"));
        SessionState fork = sessions.fork(Fork.of(id, afterSecond).by("test"));
        int before = OpenAiStub.bodies().size();
        planner.suggest(id, "What about Rethymno?");
        planner.suggest(fork.sessionId(), "What about Heraklion?");

        List<String> bodies = Bodies.since(before);
        assertThat(userTurns(bodies.get(0))).as("the rolled-back session's window")
                .containsExactly("Plan a week in Crete", "What about Rethymno?");
        assertThat(userTurns(bodies.get(1))).as("the fork's window")
                .containsExactly("Plan a week in Crete", "Add a day in Chania", "What about Heraklion?");

        sessions.rollback(Rollback.of(id, afterThird).by("test"));
        int again = OpenAiStub.bodies().size();
        planner.suggest(id, "Back to the boat trip");
        assertThat(userTurns(Bodies.since(again).get(0))).as("rolled back to the version before the rollback")
                .containsExactly("Plan a week in Crete", "Add a day in Chania", "Add a boat trip", "Back to the boat trip");
    }

    @Test
    void aRollbackToAStreamedStepKeepsItsAnswerInTheWindow() throws Exception {
        String id = "trip-" + UUID.randomUUID();
        planner.stream(id, "Plan a week in Crete").collect().asList().await().indefinitely();
        planner.stream(id, "Add a day in Chania").collect().asList().await().indefinitely();
        long afterSecond = sessions.get(id).version();
        planner.stream(id, "Add a boat trip").collect().asList().await().indefinitely();

        sessions.rollback(Rollback.of(id, afterSecond).by("test"));
        int before = OpenAiStub.bodies().size();
        planner.suggest(id, "What about Rethymno?");

        String body = Bodies.since(before).get(0);
        assertThat(userTurns(body)).containsExactly("Plan a week in Crete", "Add a day in Chania", "What about Rethymno?");
        assertThat(turns(body, "assistant")).as("the streamed answers the window had at the version rolled back to")
                .hasSize(2).allSatisfy(answer -> assertThat(answer).isEqualTo(OpenAiStub.STREAMED_ANSWER));
    }

    private static int copies(String body, String text) throws Exception {
        int copies = 0;
        for (JsonNode message : JSON.readTree(body).path("messages")) {
            String content = message.path("content").asText();
            for (int at = content.indexOf(text); at >= 0; at = content.indexOf(text, at + 1)) {
                copies++;
            }
        }
        return copies;
    }

    private static String systemMessage(String body) throws Exception {
        for (JsonNode message : JSON.readTree(body).path("messages")) {
            if ("system".equals(message.path("role").asText())) {
                return message.path("content").asText();
            }
        }
        return "";
    }

    private static List<String> userTurns(String body) throws Exception {
        return turns(body, "user");
    }

    private static List<String> turns(String body, String role) throws Exception {
        List<String> turns = new ArrayList<>();
        for (JsonNode message : JSON.readTree(body).path("messages")) {
            if (role.equals(message.path("role").asText())) {
                turns.add(message.path("content").asText());
            }
        }
        return turns;
    }
}

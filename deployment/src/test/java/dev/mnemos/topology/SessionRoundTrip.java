package dev.mnemos.topology;

import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.injection.ActingAs;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.support.Requests;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.Tokens;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.redis.datasource.RedisDataSource;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * What every topology test does with its Redis: two {@code @SessionMemory} steps, the second prompted with what the
 * first wrote, a fork and a rollback, each followed by a step whose conversation is that of the version it went to,
 * and an end, which archives the session and clears its keys (the fork lives on).
 */
final class SessionRoundTrip {

    private static final String FIRST = "Lisbon, three days in May";
    private static final String SECOND = "Book the tram tour first";
    private static final String ON_THE_FORK = "Porto instead";
    private static final String AFTER_ROLLBACK = "Then the castle";

    private SessionRoundTrip() {
    }

    static void run(TripAi ai, ScriptedChatModel model, RedisDataSource redis) {
        String user = "topology-" + SessionIds.newId();
        String id = "topology-" + SessionIds.newId();
        model.reset();
        model.script(request -> FIRST);
        assertThat(ActingAs.user(user).call(() -> ai.chat(id, "Where should I go?"))).isEqualTo(FIRST);
        model.script(request -> SECOND);
        assertThat(ActingAs.user(user).call(() -> ai.chat(id, "What do I do first?"))).isEqualTo(SECOND);
        ChatRequest second = model.requests().get(1);
        assertThat(Requests.block(second)).as("the second step's memory block").contains("version 2", "answer.chat");
        assertThat(Requests.all(second)).as("the second step's conversation").contains(FIRST);
        as(user).get("/v1/sessions/{id}", id).then().statusCode(200).body("version", equalTo(3))
                .body("collected.'answer.chat'", equalTo(SECOND));

        String fork = as(user).body(Map.of("fromVersion", 2)).post("/v1/sessions/{id}/fork", id).then().statusCode(201)
                .body("forkedFrom.sessionId", equalTo(id)).body("collected.'answer.chat'", equalTo(FIRST))
                .extract().path("sessionId");
        assertThat(conversationOf(ai, model, user, fork, ON_THE_FORK)).as("the fork's conversation, from version 2")
                .contains(FIRST).doesNotContain(SECOND);
        as(user).body(Map.of("toVersion", 2)).post("/v1/sessions/{id}/rollback", id).then().statusCode(200)
                .body("version", equalTo(4)).body("collected.'answer.chat'", equalTo(FIRST));
        assertThat(conversationOf(ai, model, user, id, AFTER_ROLLBACK)).as("the conversation after the rollback")
                .contains(FIRST).doesNotContain(SECOND);

        as(user).post("/v1/sessions/{id}/end", id).then().statusCode(200).body("sessionId", equalTo(id));
        assertThat(SessionKeys.all(id)).as("the ended session's keys").noneMatch(key -> redis.key().exists(key));
        assertThat(redis.key().exists(SessionKeys.ended(id))).as("the marker that refuses a restart").isTrue();
        assertThat(redis.sortedSet(String.class).zrange(SessionKeys.userSessions(user), 0, -1)).containsExactly(fork);
        as(user).get("/v1/sessions/{id}/report", id).then().statusCode(200).body("sessionId", equalTo(id));
        as(user).get("/v1/sessions/{id}", fork).then().statusCode(200)
                .body("collected.'answer.chat'", equalTo(ON_THE_FORK));
    }

    /** Takes a step of {@code sessionId} that the model answers with {@code answer}; what the model was sent. */
    private static String conversationOf(TripAi ai, ScriptedChatModel model, String user, String sessionId,
            String answer) {
        model.reset();
        model.script(request -> answer);
        assertThat(ActingAs.user(user).call(() -> ai.chat(sessionId, "And now?"))).isEqualTo(answer);
        return Requests.all(model.requests().get(0));
    }

    private static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }
}

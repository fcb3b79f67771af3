package dev.mnemos.server.inspector;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;

/** {@code GET /v1/sessions/ended} and {@code GET /v1/sessions/{id}/report}, which the inspector reads. */
@QuarkusTest
class EndedSessionsApiTest {

    private static RequestSpecification as(String user) {
        return given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON);
    }

    private static String endedSession(String user, String goal) {
        String id = as(user).body(Map.of("goal", goal)).post("/v1/sessions").then().statusCode(201).extract().path("sessionId");
        as(user).body(Map.of("text", "Likes quiet hotels", "explicit", false))
                .post("/v1/sessions/{id}/observations", id).then().statusCode(200);
        as(user).post("/v1/sessions/{id}/end", id).then().statusCode(200);
        return id;
    }

    @Test
    void listsTheCallersEndedSessionsNewestFirstAPageAtATime() {
        String user = "ended-" + UUID.randomUUID();
        String first = endedSession(user, "第一次 🗾");
        String second = endedSession(user, "second");
        String third = endedSession(user, "שלישי");

        Response page1 = as(user).get("/v1/sessions/ended?limit=2").then().statusCode(200).extract().response();
        assertThat(page1.jsonPath().getList("sessionId", String.class)).containsExactly(third, second);
        assertThat(page1.jsonPath().getList("goal", String.class)).containsExactly("שלישי", "second");
        String cursor = page1.header("Mnemos-Next-Cursor");
        assertThat(cursor).isNotBlank();

        Response page2 = as(user).queryParam("limit", 2).queryParam("cursor", cursor).get("/v1/sessions/ended")
                .then().statusCode(200).extract().response();
        assertThat(page2.jsonPath().getList("sessionId", String.class)).containsExactly(first);
        assertThat(page2.jsonPath().getList("goal", String.class)).containsExactly("第一次 🗾");
        assertThat(page2.header("Mnemos-Next-Cursor")).isNull();

        List<String> all = new ArrayList<>(as(user).get("/v1/sessions/ended").then().statusCode(200).extract()
                .jsonPath().getList("sessionId", String.class));
        assertThat(all).containsExactly(third, second, first);
        given().auth().oauth2(Tokens.service("backend")).get("/v1/users/{u}/sessions/ended", user).then().statusCode(200)
                .body("sessionId", hasItem(first));
    }

    @Test
    void anotherUserSeesNoneOfThem() {
        String owner = "ended-" + UUID.randomUUID();
        String id = endedSession(owner, "private");
        String other = "other-" + UUID.randomUUID();

        assertThat(as(other).get("/v1/sessions/ended").then().statusCode(200).extract().jsonPath()
                .getList("sessionId", String.class)).doesNotContain(id);
        as(other).get("/v1/sessions/{id}/report", id).then().statusCode(404).contentType("application/problem+json");
        as(other).get("/v1/users/{u}/sessions/ended", owner).then().statusCode(404);
        given().get("/v1/sessions/ended").then().statusCode(401);
    }

    @Test
    void reportOfAnEndedSessionIsTheOneAnsweredWhenItEnded() {
        String user = "ended-" + UUID.randomUUID();
        String id = endedSession(user, "report");
        as(user).get("/v1/sessions/{id}/report", id).then().statusCode(200)
                .body("sessionId", is(id)).body("pending.text", hasItem("Likes quiet hotels"));

        String live = as(user).body(Map.of("goal", "still running")).post("/v1/sessions").then().statusCode(201)
                .extract().path("sessionId");
        as(user).get("/v1/sessions/{id}/report", live).then().statusCode(404);
        as(user).get("/v1/sessions/{id}", live).then().statusCode(200); // /sessions/{id} is not shadowed
    }

    @Test
    void badPagingAnswers400NamingTheField() {
        String user = "ended-" + UUID.randomUUID();
        as(user).get("/v1/sessions/ended?limit=0").then().statusCode(400).body("field", is("limit"));
        as(user).get("/v1/sessions/ended?limit=101").then().statusCode(400).body("field", is("limit"));
        as(user).get("/v1/sessions/ended?cursor=not-a-cursor!").then().statusCode(400).body("field", is("cursor"))
                .body("detail", containsString("Mnemos-Next-Cursor"));
    }

    @Test
    void inspectorPageIsServedAndInsertsNoMarkupFromData() {
        given().get("/mnemos/inspector/").then().statusCode(200).contentType(containsString("text/html"))
                .body(containsString("Mnemos session inspector"));
        String script = given().get("/mnemos/inspector/inspector.js").then().statusCode(200).extract().asString();
        assertThat(script).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(");
        // the page probes GET endpoints with HEAD (the dev token's): answered without a body
        as("head-" + UUID.randomUUID()).head("/v1/sessions/ended").then().statusCode(200);
    }

    @Test
    void noOtherSiteMayFrameTheInspector() {
        for (String file : List.of("", "index.html", "inspector.js")) {
            given().get("/mnemos/inspector/" + file).then().statusCode(200).header("X-Frame-Options", "SAMEORIGIN")
                    .header("Content-Security-Policy", "frame-ancestors 'self'");
        }
    }
}

package dev.mnemos.server.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/** The live OpenAPI document (/q/openapi) is complete enough for a client to be written from it. */
@QuarkusTest
class OpenApiDocumentTest {

    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");

    static JsonNode document() throws Exception {
        String json = given().accept("application/json").get("/q/openapi?format=json").then().statusCode(200)
                .extract().asString();
        return new ObjectMapper().readTree(json);
    }

    @Test
    void everyOperationHasASummaryAndADescription() throws Exception {
        JsonNode paths = document().path("paths");
        List<String> undocumented = new ArrayList<>();
        int operations = 0;
        for (var path = paths.fields(); path.hasNext();) {
            var entry = path.next();
            for (var op = entry.getValue().fields(); op.hasNext();) {
                var operation = op.next();
                if (!METHODS.contains(operation.getKey())) {
                    continue;
                }
                operations++;
                JsonNode o = operation.getValue();
                if (o.path("summary").asText("").isBlank() || o.path("description").asText("").isBlank()) {
                    undocumented.add(operation.getKey().toUpperCase() + " " + entry.getKey());
                }
            }
        }
        assertThat(operations).as("operations in /q/openapi").isGreaterThan(30);
        assertThat(undocumented).as("operations without summary or description").isEmpty();
    }

    @Test
    void stepWritesDocumentTheirProblemResponses() throws Exception {
        JsonNode responses = document().at("/paths/~1v1~1sessions~1{id}~1steps/post/responses");
        for (String code : List.of("400", "404", "409", "413", "503")) {
            assertThat(responses.at("/" + code + "/content/application~1problem+json/schema/$ref").asText())
                    .as("step write documents " + code + " as problem+json").endsWith("/Problem");
        }
        assertThat(responses.at("/503/headers/Retry-After").isObject()).as("503 documents Retry-After").isTrue();
        assertThat(responses.at("/200").isObject()).as("the success response is still documented").isTrue();
        JsonNode body = document().at("/paths/~1v1~1sessions~1{id}~1steps/post/requestBody/content/application~1json");
        assertThat(body.path("examples").size() + (body.has("example") ? 1 : 0)).as("step body example").isPositive();
        assertThat(document().at("/paths/~1v1~1sessions~1{id}~1end/post/responses/503").isObject()).isTrue();
        assertThat(document().at("/paths/~1v1~1sessions~1{id}~1versions~1{version}/get/responses/410").isObject()).isTrue();
        for (String chat : List.of("/paths/~1v1~1agent~1chat/post/responses/502",
                "/paths/~1v1~1users~1{userId}~1agent~1chat/post/responses/502")) {
            assertThat(document().at(chat + "/content/application~1problem+json/schema/$ref").asText()).as(chat)
                    .endsWith("/Problem");
        }
    }

    @Test
    void schemaNamesAreUniqueAndMeaningful() throws Exception {
        JsonNode schemas = document().at("/components/schemas");
        List<String> names = new ArrayList<>();
        schemas.fieldNames().forEachRemaining(names::add);
        assertThat(names).contains("Problem", "SessionWriteResult", "StepTraceWrite", "SessionStatus");
        assertThat(names).as("schema names the generator had to number").noneMatch(n -> n.matches(".*\\d$"));
    }

    @Test
    void readinessDependsOnRedisOnlyAndPostgresHasItsOwnGroup() {
        String ready = given().get("/q/health/ready").then().statusCode(200).extract().asString();
        assertThat(ready).containsIgnoringCase("redis").doesNotContain("Database connections");
        given().get("/q/health/group/" + PostgresHealthCheck.GROUP).then().statusCode(200)
                .body(Matchers.containsString("Mnemos profile store (Postgres)"));
    }
}

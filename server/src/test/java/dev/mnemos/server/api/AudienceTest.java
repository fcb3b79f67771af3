package dev.mnemos.server.api;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

/**
 * With {@code mp.jwt.verify.audiences} set, a token is accepted only when its {@code aud} names one of them: a token
 * for another audience or without {@code aud} answers 401 on the REST API and on MCP, also once a valid token of
 * the same user was verified and cached (docs/operations.md, "Tokens").
 */
@QuarkusTest
@TestProfile(AudienceTest.Audience.class)
class AudienceTest {

    public static class Audience implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("mp.jwt.verify.audiences", "mnemos-api,mnemos-mcp");
        }
    }

    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    final String alice = "alice-" + UUID.randomUUID();

    static String token(String user, String... audiences) {
        JwtClaimsBuilder claims = Jwt.issuer(Tokens.ISSUER).subject(user).groups(Set.of("user"))
                .expiresIn(Duration.ofHours(1));
        if (audiences.length > 0) {
            claims = claims.audience(Set.of(audiences));
        }
        return claims.sign();
    }

    @Test
    void onlyATokenForAConfiguredAudienceIsAccepted() {
        given().auth().oauth2(token(alice, "mnemos-api")).get("/v1/profile").then().statusCode(200);
        given().auth().oauth2(token(alice, "mnemos-mcp", "elsewhere")).get("/v1/profile").then().statusCode(200);
        for (String refused : new String[] { token(alice, "another-service"), token(alice), Tokens.user(alice) }) {
            given().auth().oauth2(refused).get("/v1/profile").then().statusCode(401)
                    .body(not(containsString("Exception")));
            given().auth().oauth2(refused).contentType("application/json").accept("application/json, text/event-stream")
                    .body(INITIALIZE).post("/mcp").then().statusCode(401);
        }
        given().auth().oauth2(token(alice, "mnemos-mcp")).contentType("application/json")
                .accept("application/json, text/event-stream").body(INITIALIZE).post("/mcp").then().statusCode(200);
    }
}

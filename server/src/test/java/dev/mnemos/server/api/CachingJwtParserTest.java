package dev.mnemos.server.api;

import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.build.Jwt;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import static io.restassured.RestAssured.given;

/** A remembered token is still the only one accepted: a tampered copy or an expired token answers 401. */
@QuarkusTest
class CachingJwtParserTest {

    @Test
    void onlyTheVerifiedTokenTextIsRememberedAndExpiredTokensAreRefused() {
        String user = "u-" + UUID.randomUUID();
        String token = Tokens.user(user);
        given().auth().oauth2(token).get("/v1/sessions").then().statusCode(200);
        given().auth().oauth2(token).get("/v1/sessions").then().statusCode(200);

        char last = token.charAt(token.length() - 2);
        String tampered = token.substring(0, token.length() - 2) + (last == 'A' ? 'B' : 'A') + token.charAt(token.length() - 1);
        given().auth().oauth2(tampered).get("/v1/sessions").then().statusCode(401);

        String expired = Jwt.issuer("mnemos").subject(user).groups(Set.of("user"))
                .issuedAt(Instant.now().minusSeconds(7200)).expiresAt(Instant.now().minusSeconds(3600)).sign();
        given().auth().oauth2(expired).get("/v1/sessions").then().statusCode(401);
        given().auth().oauth2(expired).get("/v1/sessions").then().statusCode(401);
    }
}

package dev.mnemos.server.api;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.jwt.build.Jwt;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/** An expired token is refused from its {@code exp} on, whether it was verified before (cached) or not. */
@QuarkusTest
class ExpiredTokenTest {

    private final String user = "u-" + UUID.randomUUID();

    @Test
    void tokensExpiredOneToFiftyNineSecondsAgoAreRefused() {
        int accepted = 0;
        for (int ago = 1; ago < 60; ago++) {
            Instant now = Instant.now();
            String token = Jwt.issuer("mnemos").subject(user).groups(Set.of("user"))
                    .issuedAt(now.minusSeconds(600)).expiresAt(now.minusSeconds(ago)).sign();
            int status = given().auth().oauth2(token).get("/v1/sessions").then().extract().statusCode();
            accepted += status == 200 ? 1 : 0;
            assertThat(status).as("expired %d s ago", ago).isIn(200, 401);
        }
        assertThat(accepted).as("expired tokens accepted").isZero();
    }

    @Test
    void aCachedTokenIsRefusedOnceItExpires() throws InterruptedException {
        Instant exp = Instant.now().plusSeconds(2);
        String token = Jwt.issuer("mnemos").subject(user).groups(Set.of("user"))
                .issuedAt(Instant.now()).expiresAt(exp).sign();
        given().auth().oauth2(token).get("/v1/sessions").then().statusCode(200);
        given().auth().oauth2(token).get("/v1/sessions").then().statusCode(200);
        Thread.sleep(Math.max(0, exp.toEpochMilli() - System.currentTimeMillis()) + 1100);
        int accepted = 0;
        for (int i = 0; i < 5; i++) {
            accepted += given().auth().oauth2(token).get("/v1/sessions").then().extract().statusCode() == 200 ? 1 : 0;
        }
        assertThat(accepted).as("expired tokens accepted").isZero();
    }
}

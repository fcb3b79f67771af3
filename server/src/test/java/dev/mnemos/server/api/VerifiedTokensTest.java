package dev.mnemos.server.api;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class VerifiedTokensTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void aVerifiedTokenIsServedUntilItExpires() {
        JsonWebToken jwt = token(NOW.plusSeconds(30));
        VerifiedTokens before = new VerifiedTokens(Clock.fixed(NOW, ZoneOffset.UTC));
        before.put("t1", jwt);
        assertThat(before.find("t1")).isSameAs(jwt);
        assertThat(before.find("t2")).isNull();

        VerifiedTokens after = new VerifiedTokens(Clock.fixed(NOW.plusSeconds(30), ZoneOffset.UTC));
        after.put("t1", jwt);
        assertThat(after.find("t1")).as("expired since it was verified").isNull();
    }

    private static JsonWebToken token(Instant expires) {
        return new JsonWebToken() {
            @Override
            public String getName() {
                return "u";
            }

            @Override
            public Set<String> getClaimNames() {
                return Set.of("exp");
            }

            @Override
            @SuppressWarnings("unchecked")
            public <T> T getClaim(String claimName) {
                return claimName.equals("exp") ? (T) Long.valueOf(expires.getEpochSecond()) : null;
            }

            @Override
            public long getExpirationTime() {
                return expires.getEpochSecond();
            }
        };
    }
}

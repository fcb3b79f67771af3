package dev.mnemos.server.api;

import org.eclipse.microprofile.jwt.JsonWebToken;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class VerifiedTokensTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void aVerifiedTokenIsServedUntilItExpires() {
        JsonWebToken jwt = token(NOW.plusSeconds(30));
        VerifiedTokens before = new VerifiedTokens(Clock.fixed(NOW, ZoneOffset.UTC), 1 << 20);
        before.put("t1", jwt);
        assertThat(before.find("t1")).isSameAs(jwt);
        assertThat(before.find("t2")).isNull();

        VerifiedTokens after = new VerifiedTokens(Clock.fixed(NOW.plusSeconds(30), ZoneOffset.UTC), 1 << 20);
        after.put("t1", jwt);
        assertThat(after.find("t1")).as("expired since it was verified").isNull();
    }

    @Test
    void manyLargeTokensStayWithinTheByteBudget() {
        long budget = 32L << 20;
        VerifiedTokens cache = new VerifiedTokens(Clock.fixed(NOW, ZoneOffset.UTC), budget);
        JsonWebToken jwt = token(NOW.plusSeconds(3600));
        String large = "x".repeat(14 * 1024);
        for (int i = 0; i < 10_000; i++) {
            cache.put(i + large, jwt);
        }
        assertThat(cache.bytes()).as("estimated heap of 10,000 cached 14 KB tokens").isLessThanOrEqualTo(budget)
                .isGreaterThan(budget / 2);
        long kept = IntStream.range(0, 10_000).filter(i -> cache.find(i + large) != null).count();
        assertThat(kept).as("tokens still served").isBetween(1L, budget / VerifiedTokens.weight(large));
    }

    @Test
    void aTokenAlreadyExpiredIsNotRemembered() {
        VerifiedTokens cache = new VerifiedTokens(Clock.fixed(NOW, ZoneOffset.UTC), 1 << 20);
        cache.put("t1", token(NOW));
        assertThat(cache.bytes()).isZero();
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

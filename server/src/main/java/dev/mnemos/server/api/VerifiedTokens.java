package dev.mnemos.server.api;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.time.Clock;
import java.time.Duration;

/**
 * Bearer tokens whose signature and claims were verified lately, by their exact text. Verifying a
 * token (RSA signature, base64 and JSON of the claims) was a quarter of the CPU of an HTTP step
 * write; a client sends the same token with every request. A hit is served only while the token
 * has not expired; an entry lives at most {@link #TTL} (so a rotated verification key stops
 * accepting old tokens within that time) and the cache holds at most {@link #SIZE} tokens.
 */
final class VerifiedTokens {

    static final Duration TTL = Duration.ofSeconds(60);
    static final int SIZE = 10_000;

    private final Cache<String, JsonWebToken> verified = Caffeine.newBuilder().maximumSize(SIZE).expireAfterWrite(TTL)
            .build();
    private final Clock clock;

    VerifiedTokens(Clock clock) {
        this.clock = clock;
    }

    /** The verified token of that text, or null when it is not known or has expired since. */
    JsonWebToken find(String token) {
        JsonWebToken jwt = verified.getIfPresent(token);
        if (jwt == null) {
            return null;
        }
        if (jwt.getExpirationTime() <= clock.instant().getEpochSecond()) {
            verified.invalidate(token);
            return null;
        }
        return jwt;
    }

    void put(String token, JsonWebToken jwt) {
        verified.put(token, jwt);
    }
}

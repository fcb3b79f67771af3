package dev.mnemos.server.api;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.time.Clock;
import java.time.Duration;

/**
 * Bearer tokens whose signature and claims were verified lately, by their exact text. Verifying a
 * token (RSA signature, base64 and JSON of the claims) was a quarter of the CPU of an HTTP step
 * write; a client sends the same token with every request. Rules:
 * <ul>
 * <li>a token is served only before its {@code exp}, and its entry leaves the cache then;</li>
 * <li>an entry lives at most {@link #TTL}, so a rotated verification key stops accepting old tokens within it;</li>
 * <li>the entries' estimated heap ({@link #weight}) stays within the budget given: least used ones go first.</li>
 * </ul>
 */
final class VerifiedTokens {

    static final Duration TTL = Duration.ofSeconds(60);

    /**
     * Heap per character of a token, with room to spare: an entry holds the token's text, the principal's
     * copy of its claims as JSON and the claims parsed from it (about 2.5 bytes a character, measured).
     */
    static final int BYTES_PER_CHAR = 4;
    /** Heap of an entry beyond its characters: the cache node, the principal, the claims' maps. */
    static final int ENTRY_BYTES = 1024;

    private final Cache<String, JsonWebToken> verified;
    private final Clock clock;

    VerifiedTokens(Clock clock, long maxBytes) {
        this.clock = clock;
        this.verified = Caffeine.newBuilder().maximumWeight(maxBytes)
                .weigher((String token, JsonWebToken jwt) -> weight(token))
                .expireAfter(Expiry.creating((String token, JsonWebToken jwt) -> lifetime(jwt)))
                .executor(Runnable::run)
                .build();
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
        if (lifetime(jwt).compareTo(Duration.ZERO) > 0) {
            verified.put(token, jwt);
        }
    }

    /** The estimated heap the cached entries take, after pending evictions. */
    long bytes() {
        verified.cleanUp();
        return verified.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    }

    static int weight(String token) {
        return (int) Math.min(Integer.MAX_VALUE, (long) BYTES_PER_CHAR * token.length() + ENTRY_BYTES);
    }

    /** Until the token expires, at most {@link #TTL}. */
    private Duration lifetime(JsonWebToken jwt) {
        Duration left = Duration.ofSeconds(jwt.getExpirationTime() - clock.instant().getEpochSecond());
        return left.compareTo(TTL) < 0 ? left : TTL;
    }
}

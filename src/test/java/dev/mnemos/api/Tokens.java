package dev.mnemos.api;

import io.smallrye.jwt.build.Jwt;

import java.time.Duration;
import java.util.Set;

/** Mints bearer tokens signed with the test key pair (src/test/resources/test-keys). */
public final class Tokens {

    private Tokens() {
    }

    /** A token whose subject is {@code userId}, with the {@code user} role. */
    public static String user(String userId) {
        return sign(userId, Set.of("user"));
    }

    /** A token for a trusted backend that may act for any user named in the path. */
    public static String service(String name) {
        return sign(name, Set.of("user", Caller.SERVICE_ROLE));
    }

    private static String sign(String subject, Set<String> groups) {
        return Jwt.issuer("mnemos").subject(subject).upn(subject).groups(groups)
                .expiresIn(Duration.ofHours(1)).sign();
    }
}

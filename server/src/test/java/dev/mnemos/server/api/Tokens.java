package dev.mnemos.server.api;

import dev.mnemos.rest.Caller;
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

    /** A token whose {@code upn} names someone else than its subject (a claim a user may choose). */
    public static String userWithUpn(String userId, String upn) {
        return Jwt.issuer("mnemos").subject(userId).upn(upn).claim("preferred_username", upn)
                .groups(Set.of("user")).expiresIn(Duration.ofHours(1)).sign();
    }

    private static String sign(String subject, Set<String> groups) {
        return Jwt.issuer("mnemos").subject(subject).upn(subject).groups(groups)
                .expiresIn(Duration.ofHours(1)).sign();
    }
}

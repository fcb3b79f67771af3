package dev.mnemos.testsupport;

import dev.mnemos.rest.Caller;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.util.KeyUtils;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Bearer tokens for a test application's REST API, signed with the test key pair of this jar
 * ({@code test-keys/} on the classpath, {@link #PUBLIC_KEY} to verify them): the private key is read here, so
 * signing needs no {@code smallrye.jwt.sign.key.location}.
 * <p>
 * A token of the same claims is signed once and handed out again for {@link #REUSED} (it is valid for an hour), as a
 * client keeps its token: an RSA signature costs tens of milliseconds of CPU in the tests' C1-only JVM (no BigInteger
 * intrinsics; {@code test.jvm}), and the tests sign thousands (a quarter of the deployment tests' CPU, sampled). Tokens
 * whose claims a test chooses itself (expired, another audience, no subject) are built in that test.
 */
public final class Tokens {

    /** The issuer of every token, which {@code mp.jwt.verify.issuer} names. */
    public static final String ISSUER = "mnemos";
    /** The classpath location of the public key, for {@code mp.jwt.verify.publickey.location}. */
    public static final String PUBLIC_KEY = "test-keys/publicKey.pem";
    private static final String PRIVATE_KEY = "test-keys/privateKey.pem";

    /** How long a signed token is handed out again: well within its hour. */
    static final Duration REUSED = Duration.ofMinutes(10);

    private static final PrivateKey KEY = privateKey();
    private static final Map<String, Signed> SIGNED = new ConcurrentHashMap<>();

    private record Signed(String token, long signedAt) {
    }

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

    /** A token for an operator of the store ({@code /v1/encryption}), who is no user. */
    public static String operator(String name) {
        return sign(name, Set.of(Caller.OPERATOR_ROLE));
    }

    /** A token whose {@code upn} names someone else than its subject (a claim a user may choose). */
    public static String userWithUpn(String userId, String upn) {
        return reused("upn\u0000" + userId + "\u0000" + upn, () -> Jwt.issuer(ISSUER).subject(userId).upn(upn)
                .claim("preferred_username", upn).groups(Set.of("user")).expiresIn(Duration.ofHours(1)).sign(KEY));
    }

    private static String sign(String subject, Set<String> groups) {
        return reused(subject + "\u0000" + new TreeSet<>(groups), () -> Jwt.issuer(ISSUER).subject(subject).upn(subject)
                .groups(groups).expiresIn(Duration.ofHours(1)).sign(KEY));
    }

    /** The token signed for {@code claims} within {@link #REUSED}, or a new one. */
    private static String reused(String claims, Supplier<String> signer) {
        long now = System.nanoTime();
        return SIGNED.compute(claims, (k, signed) -> signed != null && now - signed.signedAt() < REUSED.toNanos() ? signed
                : new Signed(signer.get(), now)).token();
    }

    private static PrivateKey privateKey() {
        try {
            return KeyUtils.decodePrivateKey(pem(PRIVATE_KEY));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(PRIVATE_KEY + " is no private key", e);
        }
    }

    private static String pem(String location) {
        try (InputStream in = Tokens.class.getResourceAsStream("/" + location)) {
            if (in == null) {
                throw new IllegalStateException(location + " is not on the classpath (quarkus-mnemos-test-support holds it)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

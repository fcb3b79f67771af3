package dev.mnemos.support;

import dev.mnemos.rest.Caller;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.util.KeyUtils;
import org.jboss.shrinkwrap.api.spec.JavaArchive;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Bearer tokens for a test application's REST API, signed with the test key pair
 * (src/test/resources/test-keys, the server's test keys).
 */
public final class Tokens {

    private static final String ISSUER = "mnemos";
    private static final String KEYS = "test-keys/";

    private Tokens() {
    }

    /** {@code app} with the extension's REST API on, taking the tokens this class mints. */
    public static QuarkusUnitTest restApi(QuarkusUnitTest app) {
        return restApi(app, jar -> {
        });
    }

    /**
     * {@code app} with the classes {@code root} adds, and with the extension's REST API on, taking the tokens
     * this class mints: the keys go into the application (a test class runs in it and sees nothing else).
     */
    public static QuarkusUnitTest restApi(QuarkusUnitTest app, Consumer<JavaArchive> root) {
        return app.withApplicationRoot(jar -> {
            root.accept(jar);
            jar.addClass(Tokens.class).addAsResource(KEYS + "publicKey.pem").addAsResource(KEYS + "privateKey.pem");
        })
                .overrideConfigKey("quarkus.mnemos.rest.enabled", "true")
                .overrideConfigKey("mp.jwt.verify.publickey.location", KEYS + "publicKey.pem")
                .overrideConfigKey("mp.jwt.verify.issuer", ISSUER);
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
        return Jwt.issuer(ISSUER).subject(userId).upn(upn).claim("preferred_username", upn)
                .groups(Set.of("user")).expiresIn(Duration.ofHours(1)).sign(privateKey());
    }

    private static String sign(String subject, Set<String> groups) {
        return Jwt.issuer(ISSUER).subject(subject).upn(subject).groups(groups)
                .expiresIn(Duration.ofHours(1)).sign(privateKey());
    }

    private static PrivateKey privateKey() {
        try {
            return KeyUtils.decodePrivateKey(pem("privateKey.pem"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("test-keys/privateKey.pem is no private key", e);
        }
    }

    private static String pem(String name) {
        try (InputStream in = Tokens.class.getResourceAsStream("/" + KEYS + name)) {
            if (in == null) {
                throw new IllegalStateException(KEYS + name + " is not in the application (Tokens.restApi adds it)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

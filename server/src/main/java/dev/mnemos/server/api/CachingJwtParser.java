package dev.mnemos.server.api;

import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.time.Clock;

import javax.crypto.SecretKey;

/**
 * smallrye-jwt's parser, verifying each bearer token once per {@link VerifiedTokens#TTL} instead of on
 * every request (Quarkus' JWT authentication calls {@link #parse(String)}), and never serving a token
 * after its {@code exp} from the cache. Tokens are verified with {@link AuthConfig#clockSkew()} (not
 * smallrye-jwt's own 60 s). Every other method is passed on unchanged; a token that fails verification
 * is never remembered.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class CachingJwtParser implements JWTParser {

    private final VerifiedTokens verified;
    private final JWTParser delegate;

    public CachingJwtParser(JWTAuthContextInfo info, AuthConfig config) {
        JWTAuthContextInfo skewed = new JWTAuthContextInfo(info);
        skewed.setExpGracePeriodSecs(0);
        skewed.setClockSkew((int) config.clockSkew().toSeconds());
        this.delegate = new DefaultJWTParser(skewed);
        this.verified = new VerifiedTokens(Clock.systemUTC(), config.tokenCacheSize().asLongValue());
    }

    @Override
    public JsonWebToken parse(String token) throws ParseException {
        JsonWebToken known = verified.find(token);
        if (known != null) {
            return known;
        }
        JsonWebToken jwt = delegate.parse(token);
        verified.put(token, jwt);
        return jwt;
    }

    @Override
    public JsonWebToken parse(String token, JWTAuthContextInfo context) throws ParseException {
        return delegate.parse(token, context);
    }

    @Override
    public JsonWebToken verify(String token, PublicKey key) throws ParseException {
        return delegate.verify(token, key);
    }

    @Override
    public JsonWebToken verify(String token, SecretKey key) throws ParseException {
        return delegate.verify(token, key);
    }

    @Override
    public JsonWebToken verify(String token, String secret) throws ParseException {
        return delegate.verify(token, secret);
    }

    @Override
    public JsonWebToken decrypt(String token, PrivateKey key) throws ParseException {
        return delegate.decrypt(token, key);
    }

    @Override
    public JsonWebToken decrypt(String token, SecretKey key) throws ParseException {
        return delegate.decrypt(token, key);
    }

    @Override
    public JsonWebToken decrypt(String token, String secret) throws ParseException {
        return delegate.decrypt(token, secret);
    }

    @Override
    public JsonWebToken parseOnly(String token) throws ParseException {
        return delegate.parseOnly(token);
    }
}

package dev.mnemos.server.api;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Bearer token verification in the server ({@link CachingJwtParser}). */
@ConfigMapping(prefix = "mnemos.auth")
public interface AuthConfig {

    /**
     * Clock difference tolerated between the token issuer and this server, in whole seconds: a token is accepted
     * until {@code exp} plus this (and from {@code nbf} minus this). It replaces smallrye-jwt's
     * {@code mp.jwt.verify.clock.skew}, whose default of 60 s accepted tokens a minute after they expired and which
     * cannot be set below 1 s.
     */
    @WithDefault("0s")
    Duration clockSkew();

    /**
     * Most heap the cache of verified tokens may take, estimated from the tokens' length: a larger token
     * takes more of it, so many large tokens cannot grow the heap. 0 turns the cache off (every request
     * verifies its token).
     */
    @WithDefault("32M")
    MemorySize tokenCacheSize();
}

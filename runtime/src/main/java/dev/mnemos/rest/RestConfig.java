package dev.mnemos.rest;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Run-time settings of Mnemos' REST API. The API itself is mounted only when the application
 * builds with {@code quarkus.mnemos.rest.enabled=true}.
 */
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
@ConfigMapping(prefix = "quarkus.mnemos.rest")
public interface RestConfig {

    /** Largest request body accepted by Mnemos' endpoints, in bytes; larger bodies answer 413 before anything is read. */
    @WithDefault("262144")
    long maxBodyBytes();

    /**
     * Longest request URI (path and query) accepted, in characters; a longer one answers 414 as problem+json.
     * Keep it below {@code quarkus.http.limits.max-initial-line-length}, beyond which the HTTP codec itself
     * closes the connection with an empty 414.
     */
    @WithDefault("8192")
    int maxUriLength();

    /**
     * Largest total size of the request headers accepted, in bytes; larger ones answer 431 as problem+json.
     * Keep it below {@code quarkus.http.limits.max-header-size}, beyond which the HTTP codec itself closes the
     * connection with an empty 431.
     */
    @WithDefault("16384")
    int maxHeaderBytes();

    /**
     * Whether failures outside Mnemos' own endpoints (unknown paths, the application's own resources)
     * are answered as {@code application/problem+json} too. Off by default, so an application's own
     * errors keep their shape; the standalone Mnemos server turns it on.
     */
    @WithDefault("false")
    boolean problemsForAllPaths();

    /** Page size of a list endpoint when the request gives no {@code limit}. */
    @WithDefault("100")
    int defaultPageSize();

    /** Largest {@code limit} a list endpoint accepts; a larger one answers 400. */
    @WithDefault("1000")
    int maxPageSize();
}

package dev.mnemos.server.limits;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Each user's fair share of the server (docs/operations.md "Per-user fair share"), keyed by the token's subject. */
@ConfigMapping(prefix = "mnemos.limits")
public interface LimitsConfig {

    /** Requests (an MCP batch counts each message) one user may make per second, sustained; 0 turns the limit off. */
    @WithDefault("50")
    int requestsPerSecond();

    /** Requests one user may make at once after being idle: the token bucket's size. */
    @WithDefault("100")
    int burst();

    /** Requests of one user in flight at once on one pod (an MCP GET stream is not counted); 0 turns the bound off. */
    @WithDefault("8")
    int maxConcurrent();
}

package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Chooses the session store's {@link ScriptTransport} once, at boot: Mnemos' own blocking connections
 * ({@link JedisScriptTransport}) when {@code quarkus.mnemos.session.step-pool.enabled} (they refuse to start for a
 * Redis set-up they cannot reach as the Quarkus client does, see {@link StepConnections}), else the Quarkus Redis
 * client ({@link QuarkusScriptTransport}).
 */
@ApplicationScoped
public class ScriptTransports {

    @Produces
    @Singleton
    public ScriptTransport transport(RedisDataSource redis, StepConnections connections, SessionConfig config) {
        return of(redis, connections, config);
    }

    /** The transport for a store built by hand. */
    static ScriptTransport of(RedisDataSource redis, StepConnections connections, SessionConfig config) {
        return connections.enabled() ? new JedisScriptTransport(connections)
                : new QuarkusScriptTransport(new RedisCalls(redis, config));
    }
}

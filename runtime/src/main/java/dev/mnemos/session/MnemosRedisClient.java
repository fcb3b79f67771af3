package dev.mnemos.session;

import io.quarkus.redis.client.RedisClientName;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.inject.Singleton;

/**
 * Hands Mnemos the application's Quarkus Redis client it is configured for ({@link MnemosRedisConfig}), as
 * {@link MnemosRedis} data sources. The deployment asks Quarkus to create that client, so it exists even when no
 * application bean injects it.
 */
@ApplicationScoped
public class MnemosRedisClient {

    @Produces
    @Singleton
    @MnemosRedis
    RedisDataSource blocking(@Any Instance<RedisDataSource> clients, MnemosRedisConfig config) {
        return clients.select(named(config)).get();
    }

    @Produces
    @Singleton
    @MnemosRedis
    ReactiveRedisDataSource reactive(@Any Instance<ReactiveRedisDataSource> clients, MnemosRedisConfig config) {
        return clients.select(named(config)).get();
    }

    private static AnnotationLiteral<?> named(MnemosRedisConfig config) {
        return config.redisClientName().<AnnotationLiteral<?>> map(RedisClientName.Literal::of)
                .orElse(Default.Literal.INSTANCE);
    }
}

package dev.mnemos.session;

import jakarta.inject.Qualifier;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The Quarkus Redis client Mnemos uses, the one {@code quarkus.mnemos.redis-client-name} names (the default client
 * when unset): every Redis call of Mnemos goes through it ({@link MnemosRedisClient}).
 */
@Qualifier
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE })
public @interface MnemosRedis {
}

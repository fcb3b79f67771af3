package dev.mnemos.session;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.redis.datasource.RedisDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** The start does not wait for Redis' settings; a write that comes before they are read waits for them. */
class RedisDurabilityStartTest {

    private final CountDownLatch redisAnswers = new CountDownLatch(1);
    private final RedisDurability durability = new RedisDurability(slowRedis(), new SimpleMeterRegistry(), config());

    @AfterEach
    void stop() {
        redisAnswers.countDown();
        durability.onStop(null);
    }

    @Test
    void theStartGoesOnWhileRedisHasNotAnsweredAndTheFirstWriteWaitsForIt() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> durability.onStart(null));

        CompletableFuture<Void> write = CompletableFuture.runAsync(durability::refuseWritesIfEvicting);
        assertThatThrownBy(() -> write.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);

        redisAnswers.countDown();
        write.get(5, TimeUnit.SECONDS); // unknown settings refuse nothing
        assertThat(write).isCompleted();
    }

    /** A Redis whose every command waits until the test lets it answer, then gets no reply (settings unknown). */
    private RedisDataSource slowRedis() {
        return (RedisDataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { RedisDataSource.class }, (proxy, method, args) -> {
                    if (method.getName().equals("execute")) {
                        redisAnswers.await();
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private static RedisDurabilityConfig config() {
        return new RedisDurabilityConfig() {
            @Override
            public DurabilityCheck durabilityCheck() {
                return DurabilityCheck.WARN;
            }

            @Override
            public boolean acceptEviction() {
                return false;
            }

            @Override
            public Duration checkInterval() {
                return Duration.ZERO;
            }
        };
    }
}

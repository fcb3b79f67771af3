package dev.mnemos.profile;

import dev.mnemos.session.SessionConfig;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code quarkus.mnemos.profile.revision-mirror-ttl=0} turns the copy off: nothing is read from or
 * written to Redis (here there is none: any use would fail), so every step checks Postgres.
 */
class ProfileRevisionsOffTest {

    private static <T> T config(Class<T> type, String method, Object value) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (proxy, m, args) -> {
            if (m.getName().equals(method)) {
                return value;
            }
            throw new UnsupportedOperationException(m.getName());
        }));
    }

    private static ProfileRevisions withTtl(Duration ttl) {
        return new ProfileRevisions(null, null, config(ProfileConfig.class, "revisionMirrorTtl", ttl),
                config(SessionConfig.class, "redisTimeout", Duration.ofSeconds(1)), null);
    }

    @Test
    void aZeroTtlNeverTouchesRedis() {
        ProfileRevisions off = withTtl(Duration.ZERO);
        assertThat(off.enabled()).isFalse();
        assertThat(off.current("u-1")).isEmpty();
        off.offer("u-1", 3);
        off.committed(new ProfileRevised("u-1", 3));
    }

    @Test
    void aPositiveTtlKeepsTheCopy() {
        assertThat(withTtl(Duration.ofSeconds(60)).enabled()).isTrue();
        assertThat(ProfileRevisions.key("u-1")).isEqualTo("mnemos:{p:u-1}:revision");
    }
}

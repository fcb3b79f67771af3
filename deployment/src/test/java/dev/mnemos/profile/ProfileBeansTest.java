package dev.mnemos.profile;

import io.quarkus.cache.Cache;
import io.quarkus.cache.CacheName;
import io.quarkus.cache.CaffeineCache;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionRequiredException;
import jakarta.transaction.TransactionalException;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The profile's beans called directly, in one application: the read cache (Quarkus Cache) serves a user's facts only at
 * the revision they were read at; and the profile's API for promotion, beyond what the session-end tests already drive
 * through it.
 */
class ProfileBeansTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties");

    private static final List<ActiveFact> OLD = List.of(new ActiveFact(1, Category.FACT, null, "old", 1, Instant.EPOCH, null));
    private static final List<ActiveFact> NEW = List.of(new ActiveFact(2, Category.FACT, null, "new", 1, Instant.EPOCH, null));

    @Inject
    ProfileCache cache;
    @Inject
    @CacheName(ProfileCache.NAME)
    Cache underlying;
    @Inject
    ProfileReader reader;
    @Inject
    ProfileService profiles;

    @Inject
    ProfilePromotions profile;

    private String user;

    /** A user of each test's own: QuarkusUnitTest runs every test method on one instance. */
    @BeforeEach
    void newUser() {
        user = "cache-" + UUID.randomUUID();
    }

    @Test
    void loadsOncePerRevisionAndNeverServesAnotherRevision() {
        AtomicInteger loads = new AtomicInteger();
        ProfileCache.Lookup first = cache.get(user, 3, () -> {
            loads.incrementAndGet();
            return OLD;
        });
        ProfileCache.Lookup second = cache.get(user, 3, () -> {
            loads.incrementAndGet();
            return NEW;
        });
        ProfileCache.Lookup next = cache.get(user, 4, () -> {
            loads.incrementAndGet();
            return NEW;
        });

        assertThat(first.cached()).isFalse();
        assertThat(second.cached()).isTrue();
        assertThat(second.facts()).isEqualTo(OLD);
        assertThat(next.cached()).isFalse();
        assertThat(next.facts()).isEqualTo(NEW);
        assertThat(loads).hasValue(2);
    }

    @Test
    void aFailedLoadIsNotCached() {
        try {
            cache.get(user, 1, () -> {
                throw new ProfileUnavailableException("down", null);
            });
        } catch (ProfileUnavailableException expected) {
            // the caller sees the failure
        }
        assertThat(cache.get(user, 1, () -> OLD).cached()).isFalse();
    }

    @Test
    void aWriteIsSeenByTheNextReadThroughTheRevision() {
        profiles.add(user, "test", new NewFact(Category.FACT, null, "Keeps bees", 1.0));
        reader.read(user); // loads at the new revision, unless the write path itself already did
        assertThat(reader.read(user)).satisfies(r -> {
            assertThat(r.cached()).isTrue();
            assertThat(r.facts()).extracting(ActiveFact::text).containsExactly("Keeps bees");
        });
        profiles.add(user, "test", new NewFact(Category.FACT, null, "Plays chess", 1.0));
        assertThat(reader.read(user)).satisfies(r -> {
            assertThat(r.facts()).extracting(ActiveFact::text).containsExactly("Keeps bees", "Plays chess");
        });
    }

    @Test
    void isBoundedByDefault() {
        assertThat(ConfigProvider.getConfig()
                .getValue("quarkus.cache.caffeine.\"" + ProfileCache.NAME + "\".maximum-size", Long.class))
                .isEqualTo(10_000L);
        assertThat(underlying).isInstanceOf(CaffeineCache.class);
    }

    // the profile's API for promotion

    @Test
    void theLockIsOnlyTakenInsideTheCallersTransaction() {
        assertThatThrownBy(() -> profile.lock("u-lock-without-transaction"))
                .isInstanceOf(TransactionalException.class)
                .hasCauseInstanceOf(TransactionRequiredException.class);
    }

    @Test
    void nearDuplicatesNeedBothEmbeddingsAndTheFloor() {
        float[] a = { 1, 0 };
        assertThat(profile.nearDuplicates(a, new float[] { 1, 0.1f }, 0.9)).isTrue();
        assertThat(profile.nearDuplicates(a, new float[] { 0, 1 }, 0.9)).isFalse();
        assertThat(profile.nearDuplicates(a, null, 0)).isFalse();
        assertThat(profile.nearDuplicates(null, a, 0)).isFalse();
    }

    @Test
    void embeddingsRoundTripThroughTheStorageFormat() {
        float[] v = { 0.25f, -1.5f, 3e-8f };
        assertThat(profile.decode(profile.encode(v))).containsExactly(v);
        assertThat(profile.encode(null)).isNull();
        assertThat(profile.decode(null)).isNull();
    }
}

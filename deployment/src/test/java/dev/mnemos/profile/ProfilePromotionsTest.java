package dev.mnemos.profile;

import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionRequiredException;
import jakarta.transaction.TransactionalException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The profile's API for promotion, beyond what the session-end tests already drive through it. */
class ProfilePromotionsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties");

    @Inject
    ProfilePromotions profile;

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

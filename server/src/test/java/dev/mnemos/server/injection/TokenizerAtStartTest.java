package dev.mnemos.server.injection;

import dev.mnemos.injection.TokenCounter;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Singleton;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The block's tokenizer is built while the application starts, not in its first step (jtokkit reads
 * its vocabularies when first used). A profile of its own, so this application has run no step.
 */
@QuarkusTest
@TestProfile(TokenizerAtStartTest.FreshStart.class)
class TokenizerAtStartTest {

    public static class FreshStart implements QuarkusTestProfile {
        @Override
        public String getConfigProfile() {
            return "test";
        }
    }

    @Test
    void theTokenCounterExistsBeforeAnyStep() {
        var singletons = Arc.container().getActiveContext(Singleton.class).getState().getContextualInstances();
        assertThat(singletons.keySet()).as("singleton beans created by now")
                .anyMatch(bean -> bean.getTypes().contains(TokenCounter.class));
    }
}

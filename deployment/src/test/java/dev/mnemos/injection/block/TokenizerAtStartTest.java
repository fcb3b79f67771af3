package dev.mnemos.injection.block;

import dev.mnemos.injection.TokenCounter;
import dev.mnemos.support.JtokkitTokenizer;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Singleton;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The block's tokenizer is built while the application starts, not in its first step (jtokkit reads
 * its vocabularies when first used). The test runs no step.
 */
class TokenizerAtStartTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            .withApplicationRoot(jar -> jar.addClasses(JtokkitTokenizer.class));

    @Test
    void theTokenCounterExistsBeforeAnyStep() {
        var singletons = Arc.container().getActiveContext(Singleton.class).getState().getContextualInstances();
        assertThat(singletons.keySet()).as("singleton beans created by now")
                .anyMatch(bean -> bean.getTypes().contains(TokenCounter.class));
    }
}

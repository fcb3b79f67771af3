package dev.mnemos.deployment;

import dev.langchain4j.service.MemoryId;
import dev.mnemos.injection.SessionMemory;
import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** @SessionMemory on an interface that is not a @RegisterAiService (it was forgotten) fails the build, named. */
class NotAnAiServiceTypeTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Assistant.class))
            .withConfigurationResource("mnemos-test.properties")
            .assertException(t -> assertThat(BuildFailures.messages(t)).contains(Assistant.class.getName()
                    + ": @SessionMemory is on " + Assistant.class.getName() + ", which is not a @RegisterAiService interface"));

    @SessionMemory
    interface Assistant {

        String advise(@MemoryId String sessionId, String question);
    }

    @Test
    void buildFails() {
        fail("the build should have failed");
    }
}

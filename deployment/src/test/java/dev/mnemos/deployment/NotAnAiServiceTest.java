package dev.mnemos.deployment;

import dev.langchain4j.service.MemoryId;
import dev.mnemos.injection.SessionMemory;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/** @SessionMemory on a method of a bean that is not an AI service fails the build, named. */
class NotAnAiServiceTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Advisor.class))
            .withConfigurationResource("mnemos-test.properties")
            .assertException(t -> assertThat(BuildFailures.messages(t)).contains(Advisor.class.getName()
                    + "#advise: @SessionMemory is on " + Advisor.class.getName()
                    + ", which is not a @RegisterAiService interface"));

    @ApplicationScoped
    static class Advisor {

        @SessionMemory
        String advise(@MemoryId String sessionId, String question) {
            return "ok";
        }
    }

    @Test
    void buildFails() {
        fail("the build should have failed");
    }
}

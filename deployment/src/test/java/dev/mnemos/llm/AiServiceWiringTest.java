package dev.mnemos.llm;

import dev.mnemos.support.ScriptedChatModel;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

class AiServiceWiringTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties")
            .withApplicationRoot(jar -> jar.addClasses(EchoAi.class, ScriptedChatModel.class));
    @Inject
    EchoAi ai;
    @Inject
    ScriptedChatModel model;

    @Test
    void aiServiceReachesScriptedModelThroughSupplier() {
        model.reset();
        model.script(r -> "pong");
        assertThat(ai.echo("ping")).isEqualTo("pong");
        assertThat(model.requests()).hasSize(1);
    }
}

package dev.mnemos.llm;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

@QuarkusTest
class AiServiceWiringTest {
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

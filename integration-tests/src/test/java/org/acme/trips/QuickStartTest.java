package org.acme.trips;

import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.acme.quickstart.TripAssistant;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's quick start, as a user copies it: its AI service ({@link TripAssistant}, the README's Java block
 * verbatim) on this application's OpenAI-compatible model (quarkus-langchain4j-openai against a local stub), with only
 * the quick start's settings for Mnemos (none). Its first call starts the session; its second call's prompt carries
 * what the first stored.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
class QuickStartTest {

    private static final Path README = Path.of("..", "README.md");

    @Inject
    TripAssistant assistant;
    @Inject
    SessionStore sessions;

    @Test
    void theReadmesAiServiceIsTheOneThisAppRuns() throws IOException {
        String readme = Files.readString(README);
        String quickStart = readme.substring(readme.indexOf("## Quick start"), readme.indexOf("## The two commands"));
        Matcher java = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(quickStart);
        assertThat(java.find()).as("the quick start's Java block").isTrue();
        String block = java.group(1).lines().map(line -> line.startsWith("   ") ? line.substring(3) : line)
                .reduce((a, b) -> a + "\n" + b).orElseThrow();
        String source = Files.readString(Path.of("src/main/java/org/acme/quickstart/TripAssistant.java"));
        assertThat(source).as("TripAssistant.java holds the README's block verbatim").contains(block.strip());
    }

    @Test
    void theQuickStartsFirstCallStartsTheSessionAndItsSecondPromptCarriesTheFirstStep() {
        String id = "quick-" + UUID.randomUUID();
        int before = OpenAiStub.bodies().size();

        assertThat(assistant.advise(id, "A weekend in Porto, by train")).isEqualTo(OpenAiStub.ANSWER);
        SessionState first = sessions.get(id);
        assertThat(first.version()).isEqualTo(2);
        assertThat(first.collected()).containsEntry("answer.advise", OpenAiStub.ANSWER);

        assistant.advise(id, "And on Sunday?");
        List<String> bodies = Bodies.since(before);
        assertThat(bodies).hasSize(2);
        assertThat(Bodies.system(bodies.get(1))).contains("You help the user plan a trip.").contains("version 2")
                .contains("answer.advise").doesNotContain("#prompt");
        assertThat(sessions.get(id).version()).isEqualTo(3);
    }
}

package dev.mnemos.example;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guide's Java snippets are the code that runs: every {@code java} block of
 * docs/add-mnemos-to-your-ai-service.md appears, up to whitespace, in the example (run by
 * {@link TripAssistantTest}), in the agent it cites or in the consumer app of integration-tests/.
 */
class DocsExampleTest {

    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everyJavaSnippetOfTheGuideIsCompiledCode() throws IOException {
        String guide = Files.readString(Path.of("../docs/add-mnemos-to-your-ai-service.md"));
        String code = squash(sources(Path.of("src/test/java/dev/mnemos/example"), Path.of("src/main/java/dev/mnemos/agent"),
                Path.of("../integration-tests/src/main/java/org/acme/trips")));
        List<String> snippets = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(guide);
        while (m.find()) {
            snippets.add(m.group(1));
        }
        assertThat(snippets).hasSizeGreaterThanOrEqualTo(2);
        for (String snippet : snippets) {
            assertThat(code).as("snippet starting %s", snippet.lines().findFirst().orElse(""))
                    .contains(squash(snippet));
        }
    }

    private static String sources(Path... dirs) throws IOException {
        StringBuilder all = new StringBuilder();
        for (Path dir : dirs) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    all.append(Files.readString(file)).append('\n');
                }
            }
        }
        return all.toString();
    }

    private static String squash(String text) {
        return text.replaceAll("\\s+", " ").trim();
    }
}

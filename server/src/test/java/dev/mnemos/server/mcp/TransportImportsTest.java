package dev.mnemos.server.mcp;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two transports call the application services ({@code dev.mnemos.app}) and never each other: no MCP class
 * imports the REST API, no REST class the server, and the services import neither nor JAX-RS.
 */
class TransportImportsTest {

    static final Path RUNTIME = Path.of("../runtime/src/main/java/dev/mnemos");
    static final Path MCP = Path.of("src/main/java/dev/mnemos/server/mcp");

    static List<String> importsOf(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(f -> f.toString().endsWith(".java")).flatMap(TransportImportsTest::lines)
                    .filter(line -> line.startsWith("import ")).toList();
        }
    }

    static Stream<String> lines(Path file) {
        try {
            return Files.readAllLines(file).stream().map(String::strip);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void mcpToolsDoNotImportTheRestApi() throws IOException {
        assertThat(importsOf(MCP)).isNotEmpty().noneMatch(line -> line.contains("dev.mnemos.rest."));
    }

    @Test
    void theRestApiDoesNotImportTheServer() throws IOException {
        assertThat(importsOf(RUNTIME.resolve("rest"))).isNotEmpty().noneMatch(line -> line.contains("dev.mnemos.server."));
    }

    @Test
    void applicationServicesImportNoTransport() throws IOException {
        assertThat(importsOf(RUNTIME.resolve("app"))).isNotEmpty().noneMatch(line -> line.contains("dev.mnemos.rest.")
                || line.contains("dev.mnemos.server.") || line.contains("jakarta.ws.rs."));
    }
}

package dev.mnemos.schema;

import org.flywaydb.core.api.resource.LoadableResource;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class MigrationFilesTest {

    @Test
    void namedScriptsAreExactlyTheFilesOfTheMigrationDirectory() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources", MigrationFiles.LOCATION))) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrderElementsOf(MigrationFiles.SCRIPTS);
        }
    }

    @Test
    void everyNamedScriptLoadsFromTheClasspathAndPrefixSearchFindsIt() {
        MigrationFiles files = new MigrationFiles(getClass().getClassLoader());
        assertThat(files.getResources("V", new String[] { ".sql" })).hasSize(MigrationFiles.SCRIPTS.size())
                .allSatisfy(r -> assertThat(text(r)).containsIgnoringCase("table"));
        assertThat(files.getResource("V9__missing.sql")).isNull();
    }

    private static String text(LoadableResource resource) {
        try (BufferedReader reader = new BufferedReader(resource.read())) {
            return reader.lines().collect(Collectors.joining("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void firstSchemaOnTheSearchPathSkipsTheUserPlaceholder() {
        assertThat(SchemaMigration.firstOnPath("\"$user\", public")).contains("public");
        assertThat(SchemaMigration.firstOnPath("mnemos")).contains("mnemos");
        assertThat(SchemaMigration.firstOnPath("\"$user\"")).isEmpty();
    }
}

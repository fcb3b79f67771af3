package org.acme.packing;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The app's runtime class path, as Maven resolves it for {@code quarkus-mnemos-session} (written by the
 * dependency plugin before the tests): Mnemos is on it, the profile layer's stack is not.
 */
class RuntimeClassPathTest {

    private static final Pattern PROFILE_STACK = Pattern.compile(
            "hibernate|panache|flyway|postgresql|narayana|agroal|jboss-transaction|quarkus-datasource|jakarta\\.persistence");

    @Test
    void noHibernateFlywayOrPostgresJarIsOnTheRuntimeClassPath() throws IOException {
        List<String> jars = jars();

        // in the reactor Mnemos is its runtime module's classes; from a repository, its jar
        assertThat(entries()).anyMatch(entry -> entry.contains("quarkus-mnemos-0") || entry.endsWith("runtime/target/classes"));
        assertThat(jars).anyMatch(jar -> jar.startsWith("quarkus-redis-client-"));
        assertThat(jars).filteredOn(jar -> PROFILE_STACK.matcher(jar).find()).isEmpty();
    }

    @Test
    void theirClassesCannotBeLoaded() {
        for (String name : List.of("org.hibernate.Session", "org.flywaydb.core.Flyway", "org.postgresql.Driver",
                "io.agroal.api.AgroalDataSource", "jakarta.persistence.EntityManager")) {
            assertThat(loadable(name)).as(name).isFalse();
        }
        assertThat(loadable("dev.mnemos.session.SessionStore")).isTrue();
    }

    private static List<String> jars() throws IOException {
        return entries().stream().map(entry -> Path.of(entry).getFileName().toString()).toList();
    }

    private static List<String> entries() throws IOException {
        String file = System.getProperty("runtime.classpath.file");
        assertThat(file).as("runtime.classpath.file, set by the surefire configuration").isNotNull();
        String classPath = Files.readString(Path.of(file)).trim();
        return Arrays.asList(classPath.split(File.pathSeparator));
    }

    private static boolean loadable(String name) {
        try {
            Class.forName(name, false, RuntimeClassPathTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}

package dev.mnemos.schema;

import org.flywaydb.core.api.Location;
import org.flywaydb.core.api.ResourceProvider;
import org.flywaydb.core.api.resource.LoadableResource;
import org.flywaydb.core.internal.resolver.ChecksumCalculator;
import org.flywaydb.core.internal.resource.classpath.ClassPathResource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Mnemos' migration scripts, named rather than found by classpath scanning (which does not see
 * inside an application's packaged jars the same way in every launch mode).
 */
final class MigrationFiles implements ResourceProvider {

    static final String LOCATION = "db/mnemos";

    /** Every script under {@link #LOCATION}, in order; a test checks this list against the directory. */
    static final List<String> SCRIPTS = List.of("V1__profile.sql", "V2__promotion.sql", "V3__archive_traces.sql",
            "V4__profile_requests.sql", "V5__profile_forgotten.sql", "V6__profile_undo.sql", "V7__user_erasure.sql",
            "V8__pending_requests.sql", "V9__user_data_key.sql");

    private final ClassLoader classLoader;
    private final Location location = new Location("classpath:" + LOCATION);

    MigrationFiles(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    @Override
    public LoadableResource getResource(String name) {
        return SCRIPTS.contains(name) ? resource(name) : null;
    }

    @Override
    public Collection<LoadableResource> getResources(String prefix, String[] suffixes) {
        return SCRIPTS.stream()
                .filter(name -> name.startsWith(prefix) && Arrays.stream(suffixes).anyMatch(name::endsWith))
                .map(this::resource).toList();
    }

    /** Each script's version ("7" for {@code V7__…}) and the checksum Flyway records for it, in order. */
    static Map<String, Integer> bundled(ClassLoader classLoader) {
        MigrationFiles files = new MigrationFiles(classLoader);
        Map<String, Integer> checksums = new LinkedHashMap<>();
        for (String name : SCRIPTS) {
            checksums.put(name.substring(1, name.indexOf("__")), ChecksumCalculator.calculate(files.resource(name)));
        }
        return checksums;
    }

    private LoadableResource resource(String name) {
        return new ClassPathResource(location, LOCATION + "/" + name, classLoader, StandardCharsets.UTF_8);
    }
}

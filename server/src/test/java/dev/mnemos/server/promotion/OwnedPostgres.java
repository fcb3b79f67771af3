package dev.mnemos.server.promotion;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.List;

/** The application on a Postgres the test owns ({@link TestPostgres}); Redis as usual. */
public class OwnedPostgres implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(TestPostgres.class));
    }
}

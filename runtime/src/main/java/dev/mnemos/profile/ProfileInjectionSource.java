package dev.mnemos.profile;

import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.ProfileSource;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The profile as the read-before-write interceptor sees it: the cached, revision-checked active
 * facts, with whether the cache served them; checked against the revision's copy in Redis when
 * that is enough, else in Postgres ({@link ProfileReader#readForStep}). Replaces the interceptor's empty default source;
 * unremovable so test doubles that wrap the real source can still find it.
 */
@ApplicationScoped
@Unremovable
public class ProfileInjectionSource implements ProfileSource {

    private final ProfileReader reader;

    public ProfileInjectionSource(ProfileReader reader) {
        this.reader = reader;
    }

    @Override
    public ProfileSnapshot load(String userId) {
        return snapshot(reader.readForStep(userId));
    }

    @Override
    public Optional<ProfileSnapshot> known(String userId) {
        return reader.cachedForStep(userId).map(ProfileInjectionSource::snapshot);
    }

    @Override
    public Ahead ahead(String userId) {
        Supplier<Optional<ProfileReader.Read>> cached = reader.cachedForStepAhead(userId);
        return () -> cached.get().map(ProfileInjectionSource::snapshot);
    }

    private static ProfileSnapshot snapshot(ProfileReader.Read read) {
        return ProfileSnapshot.of(read.facts().stream().map(f -> new ProfileLine(String.valueOf(f.id()),
                f.category().name(), f.slot(), f.text(), f.confidence())).toList(),
                read.cached() ? ProfileSnapshot.Cache.HIT : ProfileSnapshot.Cache.MISS);
    }
}

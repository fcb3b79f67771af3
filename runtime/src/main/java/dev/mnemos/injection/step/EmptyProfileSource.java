package dev.mnemos.injection.step;

import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.ProfileSource;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/** Used until the application provides a {@link ProfileSource}: every user has an empty profile. */
@DefaultBean
@ApplicationScoped
public class EmptyProfileSource implements ProfileSource {

    @Override
    public ProfileSnapshot load(String userId) {
        return ProfileSnapshot.of(List.of(), ProfileSnapshot.Cache.UNKNOWN);
    }
}

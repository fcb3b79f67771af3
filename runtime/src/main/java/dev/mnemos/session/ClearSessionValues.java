package dev.mnemos.session;

import io.quarkus.arc.DefaultBean;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Session texts stored as they are: the session layer's stand-in, which the crypt layer's sealing replaces whenever
 * the profile layer is built in. The session-only packaging has no Postgres, so nowhere to keep the users' wrapped data
 * keys: a key-encryption key configured there fails the start rather than leave memory in clear behind a setting that
 * says otherwise.
 */
@DefaultBean
@Typed(SessionValues.class)
@Singleton
public class ClearSessionValues implements SessionValues {

    static final String KEY = "quarkus.mnemos.encryption.key";

    void onStart(@Observes StartupEvent event, SessionValues chosen) {
        // a default bean's observer runs even when another bean replaced it
        if (chosen instanceof ClearSessionValues
                && ConfigProvider.getConfig().getOptionalValue(KEY, String.class).isPresent()) {
            throw new IllegalStateException(KEY + " is set, but session memory only (quarkus-mnemos-session) has no"
                    + " Postgres to keep the users' data keys in: session memory would be stored in clear. Remove the"
                    + " setting, or use quarkus-mnemos (Redis and Postgres) for encryption at rest");
        }
    }
}

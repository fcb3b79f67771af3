package dev.mnemos.api;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.Config;

/** Refuses to start the production profile without a token verification key. */
public class SecurityStartupCheck {

    static final String[] KEY_PROPERTIES = {
            "mp.jwt.verify.publickey.location", "mp.jwt.verify.publickey", "mp.jwt.decrypt.key.location"};

    void onStart(@Observes StartupEvent event, Config config) {
        if (LaunchMode.current() != LaunchMode.NORMAL) {
            return;
        }
        for (String key : KEY_PROPERTIES) {
            if (config.getOptionalValue(key, String.class).filter(v -> !v.isBlank()).isPresent()) {
                return;
            }
        }
        throw new IllegalStateException("Mnemos refuses to start without a JWT verification key: set "
                + "mp.jwt.verify.publickey.location (env MP_JWT_VERIFY_PUBLICKEY_LOCATION)");
    }
}

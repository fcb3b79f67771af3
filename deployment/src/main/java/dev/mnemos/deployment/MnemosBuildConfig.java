package dev.mnemos.deployment;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Build-time settings of Mnemos. */
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
@ConfigMapping(prefix = "quarkus.mnemos")
public interface MnemosBuildConfig {

    /** Mnemos' REST API. */
    Rest rest();

    /** Mnemos' REST API. */
    interface Rest {

        /**
         * Mounts Mnemos' REST API ({@code /v1/sessions}, {@code /v1/profile}, traces, pending
         * candidates) in this application, so its own front end can show replay and rollback without
         * writing endpoints. Off by default: an application serves none of Mnemos' paths unless it asks.
         */
        @WithDefault("false")
        boolean enabled();
    }
}

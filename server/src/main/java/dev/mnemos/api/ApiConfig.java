package dev.mnemos.api;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** HTTP edge settings. */
@ConfigMapping(prefix = "mnemos.api")
public interface ApiConfig {

    /** Largest request body accepted, in bytes; larger bodies answer 413 before anything is read. */
    @WithDefault("262144")
    long maxBodyBytes();
}

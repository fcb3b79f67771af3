package dev.mnemos.session;

/** How start-up reports Redis settings that can lose live sessions ({@link RedisDurability}). */
public enum DurabilityCheck {

    /** Logged as a warning, once per JVM for the same settings (a dev-mode reload does not repeat it). */
    WARN,

    /**
     * The risk is known and accepted (a development machine, a Redis used as a cache of sessions that may
     * be lost): logged at INFO. The gauge {@code mnemos.redis.persistence} still tells the settings.
     */
    ACCEPTED
}

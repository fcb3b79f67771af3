package dev.mnemos.crypt;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Says at start-up, at INFO, whether the memory Mnemos keeps in Postgres and in Redis is encrypted at rest. Off is a
 * choice, not a fault: nothing louder than INFO. A misconfigured key fails the start here rather than at the first
 * write.
 */
@ApplicationScoped
class EncryptionStartLog {

    private static final Logger LOG = Logger.getLogger(EncryptionStartLog.class);

    void onStart(@Observes StartupEvent event, KeyEncryptionKeys keks) {
        if (keks instanceof ConfiguredKeyEncryptionKeys configured && configured.throwAway()) {
            LOG.info("Mnemos memory in Postgres and session memory in Redis are encrypted at rest with a throw-away"
                    + " key-encryption key made for this dev-mode run (no quarkus.mnemos.encryption.key is set): what it"
                    + " seals no longer opens once dev mode stops");
        } else if (keks.enabled()) {
            LOG.infof("Mnemos memory in Postgres and session memory in Redis are encrypted at rest (AES-256-GCM, a data"
                    + " key per user, wrapped by the key-encryption key '%s')", keks.currentKeyId());
        } else {
            LOG.info("Mnemos memory in Postgres and session memory in Redis are not encrypted at rest (no"
                    + " quarkus.mnemos.encryption.key is set)");
        }
    }
}

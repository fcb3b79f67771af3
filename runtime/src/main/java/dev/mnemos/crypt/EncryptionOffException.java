package dev.mnemos.crypt;

/** An operation on sealed memory (a key rotation, sealing a store) asked of a Mnemos whose encryption at rest is off. */
public class EncryptionOffException extends IllegalStateException {

    public EncryptionOffException(String operation) {
        super("encryption at rest is off: set quarkus.mnemos.encryption.key before " + operation);
    }
}

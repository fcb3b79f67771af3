package dev.mnemos.session;

/** An Idempotency-Key came back with a different request than the one it first recorded; nothing was written. */
public class IdempotencyKeyReusedException extends RuntimeException {

    private final String key;

    public IdempotencyKeyReusedException(String key) {
        super("Idempotency-Key '" + key + "' was already used for a different request");
        this.key = key;
    }

    public String key() {
        return key;
    }
}

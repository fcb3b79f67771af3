package dev.mnemos.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.session.Idempotency;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Turns a transport's idempotency key (the {@code Idempotency-Key} header, the {@code idempotencyKey} tool argument)
 * and the request it came with into the record a write stores: the key with a digest of the operation, its target
 * and the request as parsed, re-serialised. The same key with another request is refused by the write.
 */
@ApplicationScoped
public class IdempotencyKeys {

    private final ObjectMapper json;

    IdempotencyKeys(ObjectMapper json) {
        this.json = json;
    }

    /** The record, or null without a key (the request is then not serialised). */
    public Idempotency of(String key, String operation, String target, Object request) {
        if (key == null) {
            return null;
        }
        try {
            return Idempotency.of(key, operation, target, json.writeValueAsString(request));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}

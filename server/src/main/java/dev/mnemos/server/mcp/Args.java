package dev.mnemos.server.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.session.Idempotency;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/** A tool call's arguments after {@link Input} checked them: every value has the type its schema says. */
final class Args {

    private final Map<String, Object> values;
    private final ObjectMapper mapper;

    Args(Map<String, Object> values, ObjectMapper mapper) {
        this.values = values;
        this.mapper = mapper;
    }

    String string(String name) {
        return (String) values.get(name);
    }

    Optional<String> optionalString(String name) {
        return Optional.ofNullable((String) values.get(name));
    }

    long number(String name) {
        return (Long) values.get(name);
    }

    OptionalLong optionalNumber(String name) {
        Object v = values.get(name);
        return v == null ? OptionalLong.empty() : OptionalLong.of((Long) v);
    }

    boolean flag(String name) {
        return Boolean.TRUE.equals(values.get(name));
    }

    <T> Optional<T> as(String name, Class<T> type) {
        Object v = values.get(name);
        return v == null ? Optional.empty() : Optional.of(mapper.convertValue(v, type));
    }

    /**
     * The write's idempotency record from its optional {@code idempotencyKey}, or null without one: the key with a digest
     * of what the call asks ({@code kind}, {@code target}, every other argument), as the REST API builds it from the
     * {@code Idempotency-Key} header.
     */
    Idempotency idempotency(String kind, String target) {
        String key = (String) values.get(ToolInputs.IDEMPOTENCY_KEY);
        if (key == null) {
            return null;
        }
        Map<String, Object> request = new TreeMap<>(values);
        request.remove(ToolInputs.IDEMPOTENCY_KEY);
        try {
            return Idempotency.of(key, kind, target, mapper.writeValueAsString(request));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    <T> T as(String name, com.fasterxml.jackson.core.type.TypeReference<T> type) {
        Object v = values.get(name);
        return v == null ? null : mapper.convertValue(v, type);
    }
}

package dev.mnemos.server.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

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

    <T> T as(String name, com.fasterxml.jackson.core.type.TypeReference<T> type) {
        Object v = values.get(name);
        return v == null ? null : mapper.convertValue(v, type);
    }
}

package dev.mnemos.llm;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.util.Optional;

/**
 * Reads the JSON object out of a model answer: whatever lies before the first {@code {} and after
 * the last {@code }} (prose, code fences) is ignored, and comments, single quotes, unquoted names and
 * trailing commas are accepted. Validation is the caller's job.
 */
public final class LenientJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_SINGLE_QUOTES,
                    JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES, JsonReadFeature.ALLOW_TRAILING_COMMA,
                    JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS, JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS,
                    JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS)
            .build();

    private LenientJson() {
    }

    /** The object in {@code answer}; empty when there is none or it does not parse. */
    public static Optional<JsonNode> object(String answer) {
        if (answer == null) {
            return Optional.empty();
        }
        int start = answer.indexOf('{');
        int end = answer.lastIndexOf('}');
        if (start < 0 || end <= start) {
            return Optional.empty();
        }
        try {
            JsonNode node = MAPPER.readTree(answer.substring(start, end + 1));
            return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /** The first array among {@code names} in {@code object}, else its first array field of any name. */
    public static Optional<JsonNode> array(JsonNode object, String... names) {
        for (String name : names) {
            JsonNode candidate = object.get(name);
            if (candidate != null && candidate.isArray()) {
                return Optional.of(candidate);
            }
        }
        for (JsonNode value : object) {
            if (value.isArray()) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }

    /** The text of the first present, non-null field among {@code names}, coerced from any scalar. */
    public static Optional<String> text(JsonNode object, String... names) {
        for (String name : names) {
            JsonNode value = object.get(name);
            if (value != null && value.isValueNode() && !value.isNull() && !value.asText().isBlank()) {
                return Optional.of(value.asText().strip());
            }
        }
        return Optional.empty();
    }

    static ObjectMapper writer() {
        return MAPPER;
    }
}

package dev.mnemos.server.mcp;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.mnemos.app.SafeText;
import dev.mnemos.session.InvalidPatchException;
import io.quarkiverse.mcp.server.ToolInputGuardrail;
import io.quarkiverse.mcp.server.ToolManager.ToolArgument;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Singleton;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Holds a tool call's arguments to the tool's typed {@code @ToolArg}s before the tool runs, and refuses the call with a
 * tool error naming the first field at fault ({@code patch.addConstraints[1].scope}): an argument the tool does not
 * take (a typo such as {@code expectedversion} must never turn a compare-and-set into a blind write), a required one
 * missing or null, a value of another JSON type (no coercion: {@code "1"} is no integer, {@code 1.5} no version, 3.0
 * counts as 3), an unknown field or a missing required one of a record, and text with NUL (U+0000) or an unpaired
 * surrogate ({@link SafeText}). A JSON {@code null} argument is the same as leaving it out ({@link McpMessageGuard}
 * drops it before the MCP server reads the call).
 */
@Singleton
public class StrictArguments implements ToolInputGuardrail {

    private static final String MISSING_PROPERTY = "Missing required creator property '";

    private final McpCalls calls;
    private final ObjectMapper strict = strictMapper();

    StrictArguments(McpCalls calls) {
        this.calls = calls;
    }

    @Override
    public void apply(ToolInputContext context) {
        try {
            calls.user();
        } catch (InvalidPatchException e) {
            // a token whose subject is no user id is authenticated: its subject is the argument at fault, as over REST
            throw calls.refusal(e.field(), e.getMessage());
        } catch (RuntimeException e) {
            throw calls.unauthenticated();
        }
        Map<String, Object> arguments = plain(context.getArguments());
        List<ToolArgument> declared = context.getTool().arguments();
        for (String name : arguments.keySet()) {
            if (declared.stream().noneMatch(a -> a.name().equals(name))) {
                throw calls.refusal(name.replace("\u0000", "\\u0000"), "no such field; the fields are "
                        + declared.stream().map(ToolArgument::name).collect(Collectors.joining(", ")));
            }
        }
        for (ToolArgument argument : declared) {
            check(argument, arguments);
        }
    }

    private void check(ToolArgument argument, Map<String, Object> arguments) {
        String name = argument.name();
        Object value = arguments.get(name);
        if (value == null) {
            if (argument.required()) {
                throw calls.refusal(name, "a required " + describe(raw(argument.type())) + "; it is missing");
            }
            return;
        }
        safeText(name, value);
        try {
            strict.convertValue(value, strict.constructType(argument.type()));
        } catch (IllegalArgumentException e) {
            if (e.getCause() instanceof JsonMappingException mapping) {
                throw refusal(name, mapping);
            }
            throw calls.refusal(name, describe(raw(argument.type())));
        }
    }

    private RuntimeException refusal(String name, JsonMappingException e) {
        String field = name + e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? "." + ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining());
        if (e instanceof UnrecognizedPropertyException unknown) {
            return calls.refusal(field, "no such field; the fields are " + unknown.getKnownPropertyIds().stream()
                    .map(String::valueOf).collect(Collectors.joining(", ")));
        }
        String message = String.valueOf(e.getOriginalMessage());
        if (message.startsWith(MISSING_PROPERTY)) {
            String missing = message.substring(MISSING_PROPERTY.length(), message.indexOf('\'', MISSING_PROPERTY.length()));
            return calls.refusal(field.endsWith("." + missing) ? field : field + "." + missing,
                    "a required value; it is missing");
        }
        Class<?> target = e instanceof MismatchedInputException mismatch ? mismatch.getTargetType() : null;
        return calls.refusal(field, target == null ? "a value of the documented type" : describe(target));
    }

    /** Refuses a string (or an object's key) with NUL or an unpaired surrogate, naming where it is. */
    private void safeText(String path, Object value) {
        if (value instanceof String text && SafeText.firstUnsafe(text) >= 0) {
            throw calls.refusal(path, "a string without NUL (U+0000) characters or unpaired surrogates; found one at index "
                    + SafeText.firstUnsafe(text));
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, item) -> {
                safeText(path, String.valueOf(key));
                safeText(path + "." + key, item);
            });
        }
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                safeText(path + "[" + i + "]", list.get(i));
            }
        }
    }

    static String describe(Class<?> type) {
        if (type == String.class) {
            return "a string";
        }
        if (type == Long.class || type == long.class || type == Integer.class || type == int.class) {
            return "an integer";
        }
        if (type == Double.class || type == double.class) {
            return "a number";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(String::valueOf).collect(Collectors.joining(", "));
        }
        return Collection.class.isAssignableFrom(type) ? "an array" : "an object";
    }

    private static Class<?> raw(Type type) {
        if (type instanceof ParameterizedType parameterized) {
            return (Class<?>) parameterized.getRawType();
        }
        return type instanceof Class<?> c ? c : Object.class;
    }

    /** Jackson without its leniencies: no scalar coercion, no float as integer, no enum by index, no unknown field. */
    private static ObjectMapper strictMapper() {
        ObjectMapper mapper = JsonMapper.builder()
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .build();
        for (CoercionInputShape shape : List.of(CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.Boolean)) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
        }
        mapper.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        return mapper;
    }

    /**
     * The call's {@code arguments} as plain maps, lists and scalars (an absent object is empty); a number with no
     * fraction is a whole number, as JSON Schema's integer reads it.
     */
    static Map<String, Object> plain(JsonObject arguments) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (arguments != null) {
            arguments.getMap().forEach((k, v) -> out.put(k, plain(v)));
        }
        return out;
    }

    private static Object plain(Object value) {
        if (value instanceof JsonObject o) {
            return plain(o);
        }
        if (value instanceof JsonArray a) {
            return plain(a.getList());
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), plain(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(plain(v)));
            return out;
        }
        if (value instanceof Double d && d == Math.rint(d) && !d.isInfinite() && Math.abs(d) < 1e15) {
            return d.longValue();
        }
        return value;
    }
}

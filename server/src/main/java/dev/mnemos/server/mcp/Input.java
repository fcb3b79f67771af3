package dev.mnemos.server.mcp;

import dev.mnemos.rest.RequestBodyGuard;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A tool's input, defined once: {@link Type#schema()} is the strict JSON Schema that {@code tools/list}
 * publishes, and {@link Type#check} holds a call's arguments to exactly that schema, naming the first
 * field at fault ({@code patch.addConstraints[1].scope}). Objects reject unknown fields (a typo such as
 * {@code expectedversion} must never turn a compare-and-set into a blind write); strings never carry
 * NUL (U+0000), which Postgres cannot store and no text needs, nor an unpaired surrogate, which would be stored as
 * {@code ?}. A JSON {@code null} for an optional field
 * is the same as leaving it out; for a required one it is missing.
 */
final class Input {

    private Input() {
    }

    /** One JSON type of the schema. */
    interface Type {

        /** This type as JSON Schema (a fresh, mutable map). */
        Map<String, Object> schema();

        /** The value, checked and normalised (integers as Long, numbers as Double). @throws ToolInputException */
        Object check(String path, Object value);
    }

    static Str string(String description) {
        return new Str(description, false, null, null, null);
    }

    static Str text(String description) {
        return new Str(description, true, null, null, null);
    }

    static Int integer(String description, long min, long max) {
        return new Int(description, min, max);
    }

    static Num number(String description, double min, double max) {
        return new Num(description, min, max);
    }

    static Bool bool(String description) {
        return new Bool(description);
    }

    static Choice oneOf(String description, Enum<?>[] values) {
        List<String> names = new ArrayList<>();
        for (Enum<?> v : values) {
            names.add(v.name());
        }
        return new Choice(description, names);
    }

    static Arr array(String description, Type items) {
        return new Arr(description, items);
    }

    static Dict dict(String description, Str values) {
        return new Dict(description, values);
    }

    static Obj object(String description) {
        return new Obj(description);
    }

    private static Map<String, Object> base(String type, String description) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", type);
        if (description != null) {
            schema.put("description", description);
        }
        return schema;
    }

    private static ToolInputException wrong(String path, String expected, Object value) {
        return new ToolInputException(path, expected + ", got " + jsonType(value));
    }

    static String jsonType(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            return "a string";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        if (value instanceof Number) {
            return "a number";
        }
        if (value instanceof Map) {
            return "an object";
        }
        if (value instanceof List) {
            return "an array";
        }
        return value.getClass().getSimpleName();
    }

    /** A string; {@code nonBlank} for text that must say something. */
    record Str(String description, boolean nonBlank, Integer maxLength, Pattern pattern, String patternHint)
            implements
                Type {

        Str withDescription(String text) {
            return new Str(text, nonBlank, maxLength, pattern, patternHint);
        }

        Str max(int length) {
            return new Str(description, nonBlank, length, pattern, patternHint);
        }

        Str matching(String regex, String hint) {
            return new Str(description, nonBlank, maxLength, Pattern.compile(regex), hint);
        }

        @Override
        public Map<String, Object> schema() {
            Map<String, Object> schema = base("string", description);
            if (nonBlank) {
                schema.put("minLength", 1);
            }
            if (maxLength != null) {
                schema.put("maxLength", maxLength);
            }
            if (pattern != null) {
                schema.put("pattern", "^" + pattern.pattern() + "$");
            }
            return schema;
        }

        @Override
        public Object check(String path, Object value) {
            if (!(value instanceof String s)) {
                throw wrong(path, "a string", value);
            }
            safeText(path, s);
            if (nonBlank && s.isBlank()) {
                throw new ToolInputException(path, "a non-blank string");
            }
            if (maxLength != null && s.length() > maxLength) {
                throw new ToolInputException(path, "at most " + maxLength + " characters, got " + s.length());
            }
            if (pattern != null && !pattern.matcher(s).matches()) {
                throw new ToolInputException(path, patternHint);
            }
            return s;
        }

        /** The REST API's rule ({@link RequestBodyGuard#firstUnsafe}): a lone surrogate would be stored as {@code ?}. */
        static void safeText(String path, String s) {
            int at = RequestBodyGuard.firstUnsafe(s);
            if (at >= 0) {
                throw new ToolInputException(path, "a string without NUL (U+0000) characters or unpaired surrogates;"
                        + " found one at index " + at);
            }
        }
    }

    /** A whole number in [min, max]; 3.0 counts as 3 (JSON Schema's integer), 3.5 does not. */
    record Int(String description, long min, long max) implements Type {

        @Override
        public Map<String, Object> schema() {
            Map<String, Object> schema = base("integer", description);
            schema.put("minimum", min);
            if (max != Long.MAX_VALUE) {
                schema.put("maximum", max);
            }
            return schema;
        }

        @Override
        public Object check(String path, Object value) {
            if (!(value instanceof Number n)) {
                throw wrong(path, "an integer", value);
            }
            long v;
            try {
                BigDecimal exact = n instanceof BigDecimal d ? d
                        : n instanceof BigInteger i ? new BigDecimal(i)
                                : (n instanceof Double || n instanceof Float) ? BigDecimal.valueOf(n.doubleValue())
                                        : BigDecimal.valueOf(n.longValue());
                v = exact.longValueExact();
            } catch (ArithmeticException | NumberFormatException e) {
                throw new ToolInputException(path, "an integer from " + min + (max == Long.MAX_VALUE ? " up" : " to " + max)
                        + ", got " + n);
            }
            if (v < min || v > max) {
                throw new ToolInputException(path, "an integer from " + min + (max == Long.MAX_VALUE ? " up" : " to " + max)
                        + ", got " + v);
            }
            return v;
        }
    }

    /** A finite number in [min, max]. */
    record Num(String description, double min, double max) implements Type {

        @Override
        public Map<String, Object> schema() {
            Map<String, Object> schema = base("number", description);
            schema.put("minimum", min);
            schema.put("maximum", max);
            return schema;
        }

        @Override
        public Object check(String path, Object value) {
            if (!(value instanceof Number n)) {
                throw wrong(path, "a number", value);
            }
            double v = n.doubleValue();
            if (!Double.isFinite(v) || v < min || v > max) {
                throw new ToolInputException(path, "a number from " + min + " to " + max + ", got " + n);
            }
            return v;
        }
    }

    record Bool(String description) implements Type {

        @Override
        public Map<String, Object> schema() {
            return base("boolean", description);
        }

        @Override
        public Object check(String path, Object value) {
            if (!(value instanceof Boolean)) {
                throw wrong(path, "true or false", value);
            }
            return value;
        }
    }

    /** One of a fixed set of strings, case-sensitive. */
    record Choice(String description, List<String> values) implements Type {

        @Override
        public Map<String, Object> schema() {
            Map<String, Object> schema = base("string", description);
            schema.put("enum", values);
            return schema;
        }

        @Override
        public Object check(String path, Object value) {
            if (!(value instanceof String s) || !values.contains(s)) {
                throw new ToolInputException(path, "one of " + String.join(", ", values) + ", got "
                        + (value instanceof String s ? "'" + printable(s) + "'" : jsonType(value)));
            }
            return s;
        }

        private static String printable(String s) {
            String shown = s.replace("\u0000", "\\u0000");
            return shown.length() > 40 ? shown.substring(0, 40) + "…" : shown;
        }
    }

    record Arr(String description, Type items) implements Type {

        @Override
        public Map<String, Object> schema() {
            Map<String, Object> schema = base("array", description);
            schema.put("items", items.schema());
            return schema;
        }

        @Override
        public Object check(String path, Object value) {
            if (!(value instanceof List<?> list)) {
                throw wrong(path, "an array", value);
            }
            List<Object> out = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                out.add(items.check(path + "[" + i + "]", list.get(i)));
            }
            return out;
        }
    }

    /** An object of free keys (non-blank, no NUL) to values of one type. */
    record Dict(String description, Str values) implements Type {

        @Override
        public Map<String, Object> schema() {
            Map<String, Object> schema = base("object", description);
            schema.put("additionalProperties", values.schema());
            schema.put("propertyNames", Map.of("minLength", 1, "maxLength", 128));
            return schema;
        }

        @Override
        public Object check(String path, Object value) {
            if (!(value instanceof Map<?, ?> map)) {
                throw wrong(path, "an object", value);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = String.valueOf(e.getKey());
                Str.safeText(path, key);
                out.put(key, values.check(path + "." + key, e.getValue()));
            }
            return out;
        }
    }

    /** An object with named fields, required or optional; any other field is an error. */
    static final class Obj implements Type {

        private final String description;
        private final Map<String, Type> fields = new LinkedHashMap<>();
        private final List<String> required = new ArrayList<>();

        private Obj(String description) {
            this.description = description;
        }

        Obj required(String name, Type type) {
            fields.put(name, type);
            required.add(name);
            return this;
        }

        Obj optional(String name, Type type) {
            fields.put(name, type);
            return this;
        }

        @Override
        public Map<String, Object> schema() {
            Map<String, Object> schema = base("object", description);
            Map<String, Object> properties = new LinkedHashMap<>();
            fields.forEach((name, type) -> properties.put(name, type.schema()));
            schema.put("properties", properties);
            if (!required.isEmpty()) {
                schema.put("required", List.copyOf(required));
            }
            schema.put("additionalProperties", false);
            return schema;
        }

        @Override
        public Map<String, Object> check(String path, Object value) {
            if (!(value instanceof Map<?, ?> map)) {
                throw wrong(path.isEmpty() ? "arguments" : path, "an object", value);
            }
            String prefix = path.isEmpty() ? "" : path + ".";
            for (Object key : map.keySet()) {
                if (!fields.containsKey(String.valueOf(key))) {
                    String name = String.valueOf(key).replace("\u0000", "\\u0000");
                    throw new ToolInputException(prefix + name,
                            "no such field; the fields are " + String.join(", ", fields.keySet()));
                }
            }
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, Type> field : fields.entrySet()) {
                Object v = map.get(field.getKey());
                if (v == null) {
                    if (required.contains(field.getKey())) {
                        Map<String, Object> s = field.getValue().schema();
                        throw new ToolInputException(prefix + field.getKey(), "a required " + s.get("type")
                                + (map.containsKey(field.getKey()) ? ", got null" : "; it is missing"));
                    }
                    continue;
                }
                out.put(field.getKey(), field.getValue().check(prefix + field.getKey(), v));
            }
            return out;
        }
    }
}

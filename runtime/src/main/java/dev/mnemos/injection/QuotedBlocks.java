package dev.mnemos.injection;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import java.io.IOException;

/**
 * Memory blocks already escaped for JSON, by identity: a block rendered ahead ({@link SessionRenders}) is
 * escaped on the render-ahead thread, and the step whose trace carries that very block writes the escaped
 * form as it is ({@link Serializer}), instead of escaping a few thousand characters again on its own path.
 * The JSON is the same either way (Jackson's own escaping, {@link SerializedString}).
 */
public final class QuotedBlocks {

    /** Blocks by identity (weak keys compare with ==), weighed by their characters. */
    private static final Cache<String, SerializedString> QUOTED = Caffeine.newBuilder().weakKeys()
            .maximumWeight(4_000_000).weigher((String text, SerializedString quoted) -> text.length())
            .executor(Runnable::run).build();

    private QuotedBlocks() {
    }

    /** Escapes {@code block} now, for a trace that will carry this very string. */
    static void prepare(String block) {
        SerializedString quoted = new SerializedString(block);
        quoted.asQuotedChars(); // escaped here, once; the serialized string keeps the result
        QUOTED.put(block, quoted);
    }

    /** The escaped form of this very string, when it was prepared; else null. */
    static SerializedString of(String block) {
        return QUOTED.getIfPresent(block);
    }

    /** Writes a block prepared by {@link #prepare} in its escaped form, any other string as Jackson does. */
    public static final class Serializer extends StdSerializer<String> {

        public Serializer() {
            super(String.class);
        }

        @Override
        public void serialize(String value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            SerializedString quoted = of(value);
            if (quoted != null) {
                gen.writeString(quoted);
            } else {
                gen.writeString(value);
            }
        }
    }
}

package dev.mnemos.rest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import io.quarkus.arc.properties.IfBuildProperty;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;

/**
 * The one check every request body passes after it is parsed and before a resource sees it: a body must
 * be present (an empty body or a JSON {@code null} answers 400 naming {@code body}), and no string in it,
 * value or map key, may hold a NUL character or an unpaired UTF-16 surrogate (Postgres refuses NUL, and a
 * lone surrogate would be stored as {@code ?}): 400 naming the field, e.g. {@code patch.addConstraints[0].text}.
 * Applies to Mnemos' paths ({@code /v1/…}), or to every path with {@link RestConfig#problemsForAllPaths()}.
 */
@Provider
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class RequestBodyGuard implements ReaderInterceptor {

    /** Deeper bodies than this are refused rather than walked. */
    static final int MAX_DEPTH = 64;

    /** Looked up per request: providers are created before the run-time configuration exists. */
    @Inject
    jakarta.enterprise.inject.Instance<RestConfig> config;

    @Inject
    HttpServerRequest request;

    private static final JsonFactory JSON = new JsonFactory();

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (!config.get().problemsForAllPaths() && !BodySizeFilter.isMnemosPath(request.path())) {
            return context.proceed();
        }
        if (context.getMediaType() != null && context.getMediaType().getSubtype().toLowerCase(java.util.Locale.ROOT)
                .endsWith("json")) {
            byte[] bytes = context.getInputStream().readAllBytes();
            if (trailing(bytes)) {
                throw new InvalidRequestException("body", "exactly one JSON value (found more after the first)");
            }
            context.setInputStream(new ByteArrayInputStream(bytes));
        }
        Object body = context.proceed();
        if (body == null) {
            throw new InvalidRequestException("body", "a JSON object (the body is empty or null)");
        }
        check("", body, 0);
        return body;
    }

    /**
     * Whether anything but whitespace follows the first JSON value (Jackson's FAIL_ON_TRAILING_TOKENS for request
     * bodies only: the application's ObjectMapper also reads values embedded in larger documents). A body that is
     * not JSON at all is left to the JSON reader to report.
     */
    static boolean trailing(byte[] bytes) {
        try (JsonParser parser = JSON.createParser(bytes)) {
            try {
                if (parser.nextToken() == null) {
                    return false;
                }
                parser.skipChildren();
            } catch (IOException notJson) {
                return false;
            }
            try {
                return parser.nextToken() != null;
            } catch (IOException garbage) {
                return true;
            }
        } catch (IOException e) {
            return false;
        }
    }

    /** @throws InvalidRequestException naming the first field that holds unsafe text */
    static void check(String path, Object value, int depth) {
        if (depth > MAX_DEPTH) {
            throw new InvalidRequestException(path.isEmpty() ? "body" : path, "at most " + MAX_DEPTH + " levels of nesting");
        }
        if (value instanceof CharSequence text) {
            requireSafe(path, text);
        } else if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                String key = String.valueOf(entry.getKey());
                requireSafe(join(path, "<key>"), key);
                check(join(path, key), entry.getValue(), depth + 1);
            }
        } else if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                check(path + "[" + i++ + "]", item, depth + 1);
            }
        } else if (value != null && value.getClass().isRecord()) {
            for (RecordComponent component : value.getClass().getRecordComponents()) {
                check(join(path, component.getName()), read(component, value), depth + 1);
            }
        }
    }

    private static void requireSafe(String path, CharSequence text) {
        int bad = firstUnsafe(text);
        if (bad >= 0) {
            throw new InvalidRequestException(path.isEmpty() ? "body" : path,
                    "text without NUL characters or unpaired surrogates (found one at character " + bad + ")");
        }
    }

    /** The index of the first NUL or unpaired surrogate in {@code text}, or -1. */
    static int firstUnsafe(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\0' || Character.isLowSurrogate(c)) {
                return i;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return i;
                }
                i++;
            }
        }
        return -1;
    }

    private static String join(String path, String name) {
        String safe = firstUnsafe(name) >= 0 ? "<key>" : name;
        return path.isEmpty() ? safe : path + "." + safe;
    }

    private static Object read(RecordComponent component, Object record) {
        try {
            return component.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + component, e);
        }
    }
}

package dev.mnemos.rest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import dev.mnemos.app.SafeText;
import io.quarkus.arc.properties.IfBuildProperty;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.ConstrainedTo;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one check every request body passes after it is parsed and before a resource sees it: a body must
 * be present (an empty body or a JSON {@code null} answers 400 naming {@code body}) and declared JSON (a body
 * without {@code Content-Type}, or of another type, answers 415), and no string in it,
 * value or map key, may hold a NUL character or an unpaired UTF-16 surrogate (Postgres refuses NUL, and a
 * lone surrogate would be stored as {@code ?}): 400 naming the field, e.g. {@code patch.addConstraints[0].text}.
 * Applies to Mnemos' paths ({@code /v1/…}), or to every path with {@link RestConfig#problemsForAllPaths()}; never to
 * REST clients (Quarkus REST would otherwise apply a {@code @Provider} to the application's clients too, the model's
 * among them).
 */
@Provider
@ConstrainedTo(RuntimeType.SERVER)
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class RequestBodyGuard implements ReaderInterceptor {

    /** Deeper bodies than this are refused rather than walked. */
    static final int MAX_DEPTH = 64;

    /** Looked up per request: providers are created before the run-time configuration exists. */
    @Inject
    Instance<RestConfig> config;

    @Inject
    HttpServerRequest request;

    private static final JsonFactory JSON = new JsonFactory();
    /** How Jackson's message of a key met twice begins. */
    private static final String DUPLICATE = "Duplicate field '";

    private volatile Boolean problemsForAllPaths;

    /** Read once: the configuration does not change while the application runs. */
    private boolean problemsForAllPaths() {
        Boolean all = problemsForAllPaths;
        if (all == null) {
            problemsForAllPaths = all = config.get().problemsForAllPaths();
        }
        return all;
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (request == null) {
            // Quarkus REST registers a @Provider even in an application built with the REST API off (the bean is
            // excluded, so REST creates it without injection): then it guards nothing, as the API is not there
            return context.proceed();
        }
        boolean api = BodySizeFilter.isMnemosPath(request.path());
        if (!problemsForAllPaths() && !api) {
            return context.proceed();
        }
        // without a Content-Type, REST would read the body as the resource's @Consumes type: JSON
        boolean json = request.getHeader(HttpHeaders.CONTENT_TYPE) != null && context.getMediaType() != null
                && context.getMediaType().getSubtype().toLowerCase(Locale.ROOT).endsWith("json");
        if (api && !json) {
            // without this, a text/plain body would reach a record with a one-string constructor as raw text
            throw new NotSupportedException();
        }
        if (json) {
            byte[] bytes = context.getInputStream().readAllBytes();
            scan(bytes);
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
     * Refuses data after the first JSON value (Jackson's FAIL_ON_TRAILING_TOKENS for request bodies only: the
     * application's ObjectMapper also reads values embedded in larger documents), a key twice in one object (Jackson's
     * STRICT_DUPLICATE_DETECTION: otherwise the last one silently wins, and two readers of the same body may disagree)
     * and nesting deeper than {@link #MAX_DEPTH}, before the JSON reader binds anything. A body that is not JSON at all
     * is left to the JSON reader to report.
     */
    static void scan(byte[] bytes) {
        try (JsonParser parser = JSON.createParser(bytes)) {
            parser.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            int depth = 0;
            try {
                do {
                    JsonToken token = parser.nextToken();
                    if (token == null) {
                        return;
                    }
                    if (token.isStructStart() && ++depth > MAX_DEPTH) {
                        throw new InvalidRequestException("body", "at most " + MAX_DEPTH + " levels of nesting");
                    }
                    if (token.isStructEnd()) {
                        depth--;
                    }
                } while (depth > 0);
            } catch (JsonParseException e) {
                if (String.valueOf(e.getOriginalMessage()).startsWith(DUPLICATE)) {
                    throw new InvalidRequestException(pathOf(parser.getParsingContext()),
                            "each key at most once in an object (this one appears twice)");
                }
                return;
            } catch (IOException notJson) {
                return;
            }
            boolean more;
            try {
                more = parser.nextToken() != null;
            } catch (IOException garbage) {
                more = true;
            }
            if (more) {
                throw new InvalidRequestException("body", "exactly one JSON value (found more after the first)");
            }
        } catch (IOException e) {
            // closing an in-memory parser does not fail
        }
    }

    /** The path of the key being read in {@code object}: {@code patch.addConstraints[1].text}. */
    static String pathOf(JsonStreamContext object) {
        List<JsonStreamContext> steps = new ArrayList<>();
        for (JsonStreamContext c = object; c != null && !c.inRoot(); c = c.getParent()) {
            steps.add(0, c);
        }
        StringBuilder path = new StringBuilder();
        for (JsonStreamContext step : steps) {
            if (step.inArray()) {
                path.append('[').append(step.getCurrentIndex()).append(']');
            } else {
                path.append(path.length() == 0 ? "" : ".").append(step.getCurrentName());
            }
        }
        String field = path.toString();
        return field.isEmpty() || SafeText.firstUnsafe(field) >= 0 ? "body" : field;
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
            for (Component component : COMPONENTS.get(value.getClass())) {
                check(join(path, component.name()), component.read(value), depth + 1);
            }
        }
    }

    private static void requireSafe(String path, CharSequence text) {
        int bad = SafeText.firstUnsafe(text);
        if (bad >= 0) {
            throw new InvalidRequestException(path.isEmpty() ? "body" : path,
                    "text without NUL characters or unpaired surrogates (found one at character " + bad + ")");
        }
    }

    private static String join(String path, String name) {
        String safe = SafeText.firstUnsafe(name) >= 0 ? "<key>" : name;
        return path.isEmpty() ? safe : path + "." + safe;
    }

    /** A record component's name and accessor, looked up once per record class. */
    private record Component(String name, Method accessor) {

        Object read(Object record) {
            try {
                return accessor.invoke(record);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + name, e);
            }
        }
    }

    private static final ClassValue<List<Component>> COMPONENTS = new ClassValue<>() {
        @Override
        protected List<Component> computeValue(Class<?> type) {
            return Arrays.stream(type.getRecordComponents())
                    .map(c -> new Component(c.getName(), c.getAccessor())).toList();
        }
    };
}

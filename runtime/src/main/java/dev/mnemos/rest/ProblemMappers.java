package dev.mnemos.rest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Maps request-level failures of Mnemos' own endpoints to {@code application/problem+json}. Feature
 * exceptions are mapped by the mappers next to the resources of each feature. Unexpected failures
 * answer a generic 500 and log the stack trace; no exception class name ever leaves the service.
 * Failures of an application's own resources (and of unknown paths) keep the framework's default
 * answer unless {@link RestConfig#problemsForAllPaths()} is on; an application's own mappers for
 * the same types take precedence over these.
 */
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);
    /** After the application's own mappers of the same type (5000), before Quarkus' built-in ones (5100). */
    static final int PRIORITY = Priorities.USER + 50;

    private final RestConfig config;

    public ProblemMappers(RestConfig config) {
        this.config = config;
    }

    private boolean ours(SimpleResourceInfo resource) {
        return config.problemsForAllPaths() || isMnemos(resource);
    }

    /** Whether the matched resource is one of Mnemos' own (false when no resource matched). */
    static boolean isMnemos(SimpleResourceInfo resource) {
        return resource != null && resource.getResourceClass() != null
                && resource.getResourceClass().getName().startsWith("dev.mnemos.");
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Response invalidRequest(InvalidRequestException e) {
        return Problem.of(Response.Status.BAD_REQUEST, e.field() + ": expected " + e.getMessage())
                .withField(e.field()).toResponse();
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Response unknownField(UnrecognizedPropertyException e, SimpleResourceInfo resource) {
        return ours(resource) ? unknownField(e) : Response.status(Response.Status.BAD_REQUEST).build();
    }

    Response unknownField(UnrecognizedPropertyException e) {
        String field = path(e);
        return Problem.of(Response.Status.BAD_REQUEST, "unknown field '" + field + "'; accepted fields: "
                + e.getKnownPropertyIds().stream().map(Object::toString).sorted().collect(Collectors.joining(", ")))
                .withField(field).toResponse();
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Response badValue(ValueInstantiationException e, SimpleResourceInfo resource) {
        return ours(resource) ? badValue(e) : Response.status(Response.Status.BAD_REQUEST).build();
    }

    Response badValue(ValueInstantiationException e) {
        if (e.getCause() instanceof InvalidRequestException invalid) {
            return invalidRequest(invalid);
        }
        return Problem.of(Response.Status.BAD_REQUEST, "field '" + path(e) + "' has an invalid value")
                .withField(path(e)).toResponse();
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Response wrongType(MismatchedInputException e, SimpleResourceInfo resource) {
        return ours(resource) ? wrongType(e) : Response.status(Response.Status.BAD_REQUEST).build();
    }

    Response wrongType(MismatchedInputException e) {
        String field = path(e);
        String expected = e.getTargetType() == null ? "a different JSON type" : describe(e.getTargetType());
        String detail = field.isEmpty()
                ? "the request body must be a JSON object of the documented shape"
                : "field '" + field + "' must be " + expected;
        return Problem.of(Response.Status.BAD_REQUEST, detail).withField(field.isEmpty() ? "body" : field).toResponse();
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Response badFormat(InvalidFormatException e, SimpleResourceInfo resource) {
        return ours(resource) ? badFormat(e) : Response.status(Response.Status.BAD_REQUEST).build();
    }

    Response badFormat(InvalidFormatException e) {
        return wrongType(e);
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Response malformed(JsonProcessingException e, SimpleResourceInfo resource) {
        return ours(resource) ? malformed(e) : Response.status(Response.Status.BAD_REQUEST).build();
    }

    Response malformed(JsonProcessingException e) {
        if (e instanceof JsonMappingException mapping && mapping.getCause() instanceof InvalidRequestException invalid) {
            return invalidRequest(invalid);
        }
        if (e.getProcessor() instanceof JsonParser parser && isSurrogateInKey(String.valueOf(e.getOriginalMessage()))) {
            // Jackson refuses an unpaired surrogate in a key while parsing, before RequestBodyGuard sees the key;
            // inside a record's field the refusal comes wrapped with the path, carrying the same parser
            String field = keyOf(parser.getParsingContext());
            return invalidRequest(new InvalidRequestException(field,
                    "text without NUL characters or unpaired surrogates (found an unpaired surrogate)"));
        }
        return Problem.of(Response.Status.BAD_REQUEST, "the request body is not valid JSON")
                .withField("body").toResponse();
    }

    /** Jackson's "Broken surrogate pair in field name…" and "Unexpected low surrogate in field name…". */
    static boolean isSurrogateInKey(String message) {
        return message.contains("surrogate") && message.contains("in field name");
    }

    /** The path of the key being parsed in {@code object}, named the way RequestBodyGuard names keys. */
    static String keyOf(JsonStreamContext object) {
        StringBuilder path = new StringBuilder("<key>");
        for (JsonStreamContext c = object.getParent(); c != null && !c.inRoot(); c = c.getParent()) {
            path.insert(0, c.inArray() ? "[" + c.getCurrentIndex() + "]." : c.getCurrentName() + ".");
        }
        return path.toString().replace(".[", "[");
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Response web(WebApplicationException e, SimpleResourceInfo resource) {
        return ours(resource) ? web(e) : e.getResponse();
    }

    Response web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (e.getCause() instanceof JsonProcessingException json) {
            return json instanceof JsonMappingException mapping ? wrongTypeOrUnknown(mapping) : malformed(json);
        }
        if (status >= 500) {
            LOG.error("request failed", e);
            return Problem.of(status, "Server Error", "the request could not be completed").toResponse();
        }
        Response.StatusType type = e.getResponse().getStatusInfo();
        String detail = status == 404 ? "no such resource" : type.getReasonPhrase();
        if (status == 415) {
            detail = "the request body must be application/json";
        }
        return Problem.of(status, type.getReasonPhrase(), detail).toResponse();
    }

    private Response wrongTypeOrUnknown(JsonMappingException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            return unknownField(unknown);
        }
        if (e instanceof MismatchedInputException mismatch) {
            return wrongType(mismatch);
        }
        return malformed(e);
    }

    @ServerExceptionMapper(priority = PRIORITY)
    public Response unexpected(RuntimeException e, SimpleResourceInfo resource) {
        Response persistence = ProfileStoreFaults.persistence(e);
        if (persistence != null) {
            return persistence;
        }
        if (ProfileStoreFaults.isTransient(e)) {
            return ProfileProblemMappers.postgresUnavailable(e);
        }
        LOG.error("unexpected failure", e);
        if (!ours(resource)) {
            return Response.serverError().build();
        }
        return Problem.of(Response.Status.INTERNAL_SERVER_ERROR, "the request could not be completed").toResponse();
    }

    static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static String describe(Class<?> type) {
        if (type == String.class)
            return "a string";
        if (type == Long.class || type == long.class || type == Integer.class || type == int.class)
            return "an integer";
        if (type == Double.class || type == double.class)
            return "a number";
        if (type == Boolean.class || type == boolean.class)
            return "a boolean";
        if (Collection.class.isAssignableFrom(type))
            return "an array";
        if (Map.class.isAssignableFrom(type))
            return "an object";
        if (type.isEnum()) {
            return "one of " + Arrays.toString(type.getEnumConstants());
        }
        return "an object";
    }
}

package dev.mnemos.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.stream.Collectors;

/**
 * Maps request-level failures to {@code application/problem+json}. Feature exceptions are mapped
 * by the mappers next to the resources of each feature. Unexpected failures answer a generic 500
 * and log the stack trace; no exception class name ever leaves the service.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response invalidRequest(InvalidRequestException e) {
        return Problem.of(Response.Status.BAD_REQUEST, e.field() + ": expected " + e.getMessage())
                .withField(e.field()).toResponse();
    }

    @ServerExceptionMapper
    public Response unknownField(UnrecognizedPropertyException e) {
        String field = path(e);
        return Problem.of(Response.Status.BAD_REQUEST, "unknown field '" + field + "'; accepted fields: "
                + e.getKnownPropertyIds().stream().map(Object::toString).sorted().collect(Collectors.joining(", ")))
                .withField(field).toResponse();
    }

    @ServerExceptionMapper
    public Response badValue(ValueInstantiationException e) {
        if (e.getCause() instanceof InvalidRequestException invalid) {
            return invalidRequest(invalid);
        }
        return Problem.of(Response.Status.BAD_REQUEST, "field '" + path(e) + "' has an invalid value")
                .withField(path(e)).toResponse();
    }

    @ServerExceptionMapper
    public Response wrongType(MismatchedInputException e) {
        String field = path(e);
        String expected = e.getTargetType() == null ? "a different JSON type" : describe(e.getTargetType());
        String detail = field.isEmpty()
                ? "the request body must be a JSON object of the documented shape"
                : "field '" + field + "' must be " + expected;
        return Problem.of(Response.Status.BAD_REQUEST, detail).withField(field.isEmpty() ? "body" : field).toResponse();
    }

    @ServerExceptionMapper
    public Response badFormat(InvalidFormatException e) {
        return wrongType(e);
    }

    @ServerExceptionMapper
    public Response malformed(JsonProcessingException e) {
        if (e instanceof JsonMappingException mapping && mapping.getCause() instanceof InvalidRequestException invalid) {
            return invalidRequest(invalid);
        }
        return Problem.of(Response.Status.BAD_REQUEST, "the request body is not valid JSON")
                .withField("body").toResponse();
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
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

    @ServerExceptionMapper
    public Response unexpected(RuntimeException e) {
        LOG.error("unexpected failure", e);
        return Problem.of(Response.Status.INTERNAL_SERVER_ERROR, "the request could not be completed").toResponse();
    }

    static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(ref -> ref.getFieldName() != null ? ref.getFieldName() : "[" + ref.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }

    private static String describe(Class<?> type) {
        if (type == String.class) return "a string";
        if (type == Long.class || type == long.class || type == Integer.class || type == int.class) return "an integer";
        if (type == Double.class || type == double.class) return "a number";
        if (type == Boolean.class || type == boolean.class) return "a boolean";
        if (java.util.Collection.class.isAssignableFrom(type)) return "an array";
        if (java.util.Map.class.isAssignableFrom(type)) return "an object";
        if (type.isEnum()) {
            return "one of " + java.util.Arrays.toString(type.getEnumConstants());
        }
        return "an object";
    }
}

package dev.mnemos.rest;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.Map;

/**
 * An RFC 9457 problem body. {@code field} names the request field at fault when there is one;
 * {@code extras} carries typed details such as the current version on a conflict.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Problem", description = "RFC 9457 problem details (application/problem+json). `field` names the request field at fault; "
        + "typed details such as `currentVersion` or `oldestVersion` are extra top-level members.", example = ApiDocs.CONFLICT_EXAMPLE)
public record Problem(String type, String title, int status, String detail, String field,
        @JsonIgnore Map<String, Object> extras) {

    /** Typed details (for example {@code currentVersion}) as top-level members of the problem. */
    @JsonAnyGetter
    public Map<String, Object> members() {
        return extras == null ? Map.of() : extras;
    }

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(Response.Status status, String detail) {
        return new Problem("about:blank", status.getReasonPhrase(), status.getStatusCode(), detail, null, null);
    }

    public static Problem of(int status, String title, String detail) {
        return new Problem("about:blank", title, status, detail, null, null);
    }

    public Problem withField(String name) {
        return new Problem(type, title, status, detail, name, extras);
    }

    public Problem withExtras(Map<String, Object> more) {
        return new Problem(type, title, status, detail, field, more);
    }

    public Response toResponse() {
        return Response.status(status).type(MEDIA_TYPE).entity(this).build();
    }
}

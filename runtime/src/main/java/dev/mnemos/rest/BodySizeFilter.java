package dev.mnemos.rest;

import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.Optional;

/** Rejects bodies over {@link RestConfig#maxBodyBytes()} sent to Mnemos' endpoints with a 413 problem, before parsing. */
@IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")
public class BodySizeFilter {

    private final RestConfig config;

    public BodySizeFilter(RestConfig config) {
        this.config = config;
    }

    /** Pre-matching, so nothing of the body is read; Mnemos' paths are those under {@code /v1/}. */
    @ServerRequestFilter(preMatching = true)
    public Optional<Response> limit(ContainerRequestContext request) {
        String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        if (length == null || !config.problemsForAllPaths() && !isMnemosPath(request.getUriInfo().getPath())
                || parse(length) <= config.maxBodyBytes()) {
            return Optional.empty();
        }
        return Optional.of(Problem.of(413, "Payload Too Large",
                "the request body has " + length + " bytes; at most " + config.maxBodyBytes() + " are accepted")
                .withField("body").toResponse());
    }

    static boolean isMnemosPath(String path) {
        return (path.startsWith("/") ? path.substring(1) : path).startsWith("v1/");
    }

    static long parse(String length) {
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}

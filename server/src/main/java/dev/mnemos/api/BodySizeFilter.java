package dev.mnemos.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.Optional;

/** Rejects bodies over {@link ApiConfig#maxBodyBytes()} with a 413 problem, before parsing. */
public class BodySizeFilter {

    private final ApiConfig config;

    public BodySizeFilter(ApiConfig config) {
        this.config = config;
    }

    @ServerRequestFilter(preMatching = true)
    public Optional<jakarta.ws.rs.core.Response> limit(ContainerRequestContext request) {
        String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        if (length == null || parse(length) <= config.maxBodyBytes()) {
            return Optional.empty();
        }
        return Optional.of(Problem.of(413, "Payload Too Large",
                "the request body has " + length + " bytes; at most " + config.maxBodyBytes() + " are accepted")
                .withField("body").toResponse());
    }

    private static long parse(String length) {
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}

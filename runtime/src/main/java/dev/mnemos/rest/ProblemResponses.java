package dev.mnemos.rest;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;

/**
 * The problem responses of the REST API, declared once: every error response (4xx, 5xx) but 401 and 403 is
 * {@code application/problem+json} with the {@link Problem} schema, and every 503 carries {@code Retry-After}. The
 * resources name only each response's code and description (and an example where one helps); the build adds this
 * filter to the OpenAPI document when the API is on.
 */
public class ProblemResponses implements OASFilter {

    static final String RETRY_AFTER = "Retry-After";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        openAPI.getPaths().getPathItems().values()
                .forEach(path -> path.getOperations().values().forEach(ProblemResponses::complete));
    }

    private static void complete(Operation operation) {
        if (operation.getResponses() == null || operation.getResponses().getAPIResponses() == null) {
            return;
        }
        operation.getResponses().getAPIResponses().forEach((code, response) -> {
            if (isProblem(code)) {
                problemContent(response);
            }
            if (code.equals("503") && (response.getHeaders() == null || !response.getHeaders().containsKey(RETRY_AFTER))) {
                response.addHeader(RETRY_AFTER, OASFactory.createHeader().description("Seconds to wait before retrying")
                        .schema(OASFactory.createSchema().addType(Schema.SchemaType.INTEGER)));
            }
        });
    }

    private static boolean isProblem(String code) {
        return (code.startsWith("4") || code.startsWith("5")) && !code.equals("401") && !code.equals("403");
    }

    private static void problemContent(APIResponse response) {
        Content content = response.getContent();
        if (content == null) {
            content = OASFactory.createContent();
            response.setContent(content);
        }
        MediaType problem = content.getMediaType(Problem.MEDIA_TYPE);
        if (problem == null) {
            problem = OASFactory.createMediaType();
            content.addMediaType(Problem.MEDIA_TYPE, problem);
        }
        if (problem.getSchema() == null) {
            problem.setSchema(OASFactory.createSchema().ref("Problem"));
        }
    }

}

package dev.mnemos.deployment;

import dev.mnemos.rest.ProblemResponses;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.smallrye.openapi.deployment.spi.AddToOpenAPIDefinitionBuildItem;

/**
 * With the REST API on, completes its OpenAPI document with the problem responses every resource shares
 * ({@link ProblemResponses}). Runs only when the application has an OpenAPI document (SmallRye OpenAPI).
 */
class ProblemResponsesProcessor {

    @BuildStep
    void problemResponses(MnemosBuildConfig config, BuildProducer<AddToOpenAPIDefinitionBuildItem> filters) {
        if (config.rest().enabled()) {
            filters.produce(new AddToOpenAPIDefinitionBuildItem(new ProblemResponses()));
        }
    }
}

package dev.mnemos.deployment;

import io.quarkiverse.langchain4j.deployment.TemplateUtil;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import jakarta.enterprise.inject.spi.DeploymentException;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.logging.Logger;

import java.util.Optional;

/**
 * Finds misuses of {@code @SessionMemory} in the application at build time ({@link SessionMemoryUsage}):
 * errors fail the build, each naming the method; warnings are logged once per build.
 */
class SessionMemoryProcessor {

    private static final Logger LOG = Logger.getLogger(SessionMemoryProcessor.class);

    @BuildStep
    void checkUsage(CombinedIndexBuildItem index, BuildProducer<ValidationErrorBuildItem> errors) {
        SessionMemoryUsage.Findings findings = SessionMemoryUsage.check(index.getIndex(), SessionMemoryProcessor::template);
        findings.warnings().forEach(LOG::warn);
        if (!findings.errors().isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(
                    findings.errors().stream().map(DeploymentException::new).toArray(Throwable[]::new)));
        }
    }

    /** The text Quarkus LangChain4j reads from the annotation (its value, or its resource), as it reads it. */
    private static Optional<String> template(AnnotationInstance prompt) {
        try {
            return Optional.of(TemplateUtil.getTemplateFromAnnotationInstance(prompt));
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }
}

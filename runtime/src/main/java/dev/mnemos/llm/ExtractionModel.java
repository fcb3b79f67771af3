package dev.mnemos.llm;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.faulttolerance.api.TypedGuard;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.util.TypeLiteral;
import org.jboss.logging.Logger;

import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Asks the configured model for the facts in the user's own text. Empty means "no usable answer"
 * (offline, failed, timed out, garbage) and callers take their deterministic path; an empty list
 * is the model's explicit "nothing worth remembering".
 */
@ApplicationScoped
public class ExtractionModel {

    private static final Logger LOG = Logger.getLogger(ExtractionModel.class);

    private final ExtractionAi ai;
    private final LlmConfig config;
    private final MeterRegistry registry;
    private final TypedGuard<Optional<List<ExtractedFact>>> guard;

    public ExtractionModel(ExtractionAi ai, LlmConfig config, MeterRegistry registry) {
        this.ai = ai;
        this.config = config;
        this.registry = registry;
        this.guard = TypedGuard.create(new TypeLiteral<Optional<List<ExtractedFact>>>() {
        })
                .withDescription("mnemos extraction model")
                .withTimeout().duration(config.timeout().toMillis(), ChronoUnit.MILLIS).done()
                .withFallback().handler(this::noAnswer).done()
                .build();
    }

    public boolean enabled() {
        return config.enabled() && MnemosModelSupplier.find().isPresent();
    }

    /** Why {@link #enabled()} is false, for a log line. */
    public String whyDisabled() {
        return config.enabled() ? "no model: " + MnemosModelSupplier.noModel(List.of())
                : "quarkus.mnemos.llm.enabled is false";
    }

    /** The facts, or empty after {@link LlmConfig#timeout()} or any failure. */
    public Optional<List<ExtractedFact>> extract(ExtractionRequest request) {
        return guard.get(() -> ask(request));
    }

    private Optional<List<ExtractedFact>> ask(ExtractionRequest request) {
        if (!enabled() || request.userMessages().isEmpty()) {
            return Optional.empty();
        }
        Optional<List<ExtractedFact>> facts = ExtractionParser
                .parse(ModelMeters.timed(registry, "extraction",
                        () -> ai.extract(request.render(config.maxInputChars()))));
        if (facts.isEmpty()) {
            LOG.warn("extraction model answered no usable JSON; falling back");
            ModelMeters.modelFallbacks(registry, "extraction", "unusable").increment();
        }
        return facts;
    }

    private Optional<List<ExtractedFact>> noAnswer(Throwable failure) {
        LOG.warnf("extraction model failed (%s); falling back", failure.toString());
        ModelMeters.modelFallbacks(registry, "extraction", "failed").increment();
        return Optional.empty();
    }

}

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
 * Asks the configured model to reconcile new information with candidate memories. Empty means
 * "no usable answer" — offline, failed, timed out or garbage — and callers take their deterministic path.
 */
@ApplicationScoped
public class ReconcileModel {

    private static final Logger LOG = Logger.getLogger(ReconcileModel.class);

    private final ReconcileAi ai;
    private final LlmConfig config;
    private final MeterRegistry registry;
    private final TypedGuard<Optional<List<ReconcileOp>>> guard;

    public ReconcileModel(ReconcileAi ai, LlmConfig config, MeterRegistry registry) {
        this.ai = ai;
        this.config = config;
        this.registry = registry;
        this.guard = TypedGuard.create(new TypeLiteral<Optional<List<ReconcileOp>>>() {
        })
                .withDescription("mnemos reconcile model")
                .withTimeout().duration(config.timeout().toMillis(), ChronoUnit.MILLIS).done()
                .withFallback().handler(this::noAnswer).done()
                .build();
    }

    /** Whether a model call is made at all: model use is enabled and the application has a chat model. */
    public boolean enabled() {
        return config.enabled() && MnemosModelSupplier.find().isPresent();
    }

    /** The operations, or empty after {@link LlmConfig#timeout()} or any failure. */
    public Optional<List<ReconcileOp>> reconcile(ReconcileRequest request) {
        return guard.get(() -> ask(request));
    }

    private Optional<List<ReconcileOp>> ask(ReconcileRequest request) {
        if (!enabled()) {
            return Optional.empty();
        }
        String answer = ModelMeters.timed(registry, "reconcile",
                () -> ai.reconcile(request.render(config.maxInputChars())));
        Optional<List<ReconcileOp>> ops = ReconcileParser.parse(answer, request.memories().size());
        if (ops.isEmpty()) {
            LOG.warnf("reconcile model answered no usable JSON (%d characters); falling back",
                    answer == null ? 0 : answer.length());
            ModelMeters.modelFallbacks(registry, "reconcile", "unusable").increment();
        }
        return ops;
    }

    private Optional<List<ReconcileOp>> noAnswer(Throwable failure) {
        LOG.warnf("reconcile model failed (%s); falling back", failure.toString());
        ModelMeters.modelFallbacks(registry, "reconcile", "failed").increment();
        return Optional.empty();
    }

}

package dev.mnemos.llm;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Timeout;
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

    public ExtractionModel(ExtractionAi ai, LlmConfig config) {
        this.ai = ai;
        this.config = config;
    }

    public boolean enabled() {
        return config.enabled() && MnemosModelSupplier.find().isPresent();
    }

    @Timeout(value = 90, unit = ChronoUnit.SECONDS)
    @Fallback(fallbackMethod = "noAnswer")
    public Optional<List<ExtractedFact>> extract(ExtractionRequest request) {
        if (!enabled() || request.userMessages().isEmpty()) {
            return Optional.empty();
        }
        Optional<List<ExtractedFact>> facts = ExtractionParser.parse(ai.extract(request.render(config.maxInputChars())));
        if (facts.isEmpty()) {
            LOG.warn("extraction model answered no usable JSON; falling back");
        }
        return facts;
    }

    Optional<List<ExtractedFact>> noAnswer(ExtractionRequest request, Throwable failure) {
        LOG.warnf("extraction model failed (%s); falling back", failure.toString());
        return Optional.empty();
    }
}

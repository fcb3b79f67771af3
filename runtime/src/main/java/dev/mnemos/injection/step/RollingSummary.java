package dev.mnemos.injection.step;

import dev.mnemos.injection.DefaultStepWriter;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.llm.LlmConfig;
import dev.mnemos.llm.MnemosAiServices;
import dev.mnemos.llm.MnemosModelSupplier;
import dev.mnemos.llm.SessionSummaryAi;
import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Decides the summary fold due for a step: with {@code summary-mode=MODEL} and a model configured
 * ({@code mnemos.llm.provider=OPENAI}) the session-summary prompt writes it; otherwise, or when the
 * model fails or answers nothing usable, {@link SummaryFolder} does it deterministically.
 */
@ApplicationScoped
class RollingSummary {

    private static final Logger LOG = Logger.getLogger(RollingSummary.class);

    /** Writes a summary from the current one and the plans to fold; may throw. */
    @FunctionalInterface
    public interface Summarizer {
        String fold(String summary, String plans, int maxChars);
    }

    private final InjectionConfig config;
    private final boolean modelConfigured;
    private final Summarizer model;

    @Inject
    public RollingSummary(InjectionConfig config, LlmConfig llm, MnemosAiServices ai) {
        this(config, llm.enabled() && MnemosModelSupplier.find().isPresent(),
                (summary, plans, max) -> ai.summary(max).fold(SessionSummaryAi.request(summary, plans)));
    }

    RollingSummary(InjectionConfig config, boolean modelConfigured, Summarizer model) {
        this.config = config;
        this.modelConfigured = modelConfigured;
        this.model = model;
    }

    public Optional<SummaryFolder.Fold> fold(SessionState state) {
        Optional<SummaryFolder.Fold> deterministic = SummaryFolder.fold(state, config.plansShown(), config.summaryMaxChars());
        if (deterministic.isEmpty() || config.summaryMode() != InjectionConfig.SummaryMode.MODEL || !modelConfigured) {
            return deterministic;
        }
        List<PlanVersion> due = SummaryFolder.due(state, config.plansShown());
        try {
            String written = model.fold(state.summary() == null ? "" : state.summary(), plans(due), config.summaryMaxChars());
            if (written != null && !written.isBlank()) {
                return Optional.of(new SummaryFolder.Fold(DefaultStepWriter.cut(written.strip(), config.summaryMaxChars()),
                        deterministic.get().foldedThrough()));
            }
            LOG.warnf("session-summary model answered nothing for session %s; folding deterministically", state.sessionId());
        } catch (RuntimeException e) {
            LOG.warnf(e, "session-summary model failed for session %s; folding deterministically", state.sessionId());
        }
        return deterministic;
    }

    private static String plans(List<PlanVersion> due) {
        return due.stream().map(p -> "plan v" + p.version() + (p.score() == null ? "" : " (score " + p.score() + ")")
                + (p.feedback() == null ? "" : " feedback: " + p.feedback()) + "\n" + p.content())
                .collect(Collectors.joining("\n---\n"));
    }
}

package dev.mnemos.llm;

import io.quarkiverse.langchain4j.CreatedAware;

/**
 * Folds older plan versions into the rolling summary with the {@code session-summary} prompt. Built by
 * {@link MnemosAiServices#summary(int)} for one summary length, so it carries no prompt annotation.
 */
@CreatedAware
public interface SessionSummaryAi {

    /** The new summary; {@code request} is the user message ({@link #request}). */
    String fold(String request);

    /** The user message: the current summary (empty for none) and the plan versions to fold, oldest first. */
    static String request(String summary, String plans) {
        return "Current summary:\n" + summary + "\n\nPlan versions to fold in, oldest first:\n" + plans;
    }
}

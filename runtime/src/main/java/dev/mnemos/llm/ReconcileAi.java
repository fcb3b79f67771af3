package dev.mnemos.llm;

import io.quarkiverse.langchain4j.CreatedAware;

/**
 * The reconcile prompt ({@code prompts/reconcile.txt}); use {@link ReconcileModel}, which parses and falls back. Built
 * by {@link MnemosAiServices}, so it carries no prompt annotation.
 */
@CreatedAware
public interface ReconcileAi {

    /** The model's answer to {@code request}, the user message ({@link ReconcileRequest#render}). */
    String reconcile(String request);
}

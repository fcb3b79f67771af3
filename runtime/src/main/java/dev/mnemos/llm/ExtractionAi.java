package dev.mnemos.llm;

import io.quarkiverse.langchain4j.CreatedAware;

/**
 * The fact extraction prompt ({@code prompts/fact-extraction.txt}); use {@link ExtractionModel}. Built by
 * {@link MnemosAiServices}, so it carries no prompt annotation.
 */
@CreatedAware
public interface ExtractionAi {

    /** The model's answer to {@code request}, the user message ({@link ExtractionRequest#render}). */
    String extract(String request);
}

package dev.mnemos.llm;

/**
 * One fact the extraction model found. {@code category} and {@code scope} are the model's words,
 * upper-cased, or null when it gave none; callers map them onto their own enums.
 */
public record ExtractedFact(String text, String category, String scope) {
}

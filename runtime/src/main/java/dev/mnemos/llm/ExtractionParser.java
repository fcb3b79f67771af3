package dev.mnemos.llm;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns an extraction answer into facts: lenient on form (prose around the JSON, bare strings as
 * facts, {@code "fact"} for {@code "text"}), dropping elements without text. An explicit empty list
 * is a valid "nothing to remember"; no list at all is empty, so the caller falls back.
 */
public final class ExtractionParser {

    private ExtractionParser() {
    }

    public static Optional<List<ExtractedFact>> parse(String answer) {
        Optional<JsonNode> list = LenientJson.object(answer).flatMap(o -> LenientJson.array(o, "facts", "memories", "items"));
        if (list.isEmpty()) {
            return Optional.empty();
        }
        List<ExtractedFact> facts = new ArrayList<>();
        for (JsonNode element : list.get()) {
            if (element.isValueNode() && !element.isNull() && !element.asText().isBlank()) {
                facts.add(new ExtractedFact(element.asText().strip(), null, null));
            } else if (element.isObject()) {
                LenientJson.text(element, "text", "fact", "memory").ifPresent(text -> facts.add(new ExtractedFact(text,
                        upper(LenientJson.text(element, "category")), upper(LenientJson.text(element, "scope")))));
            }
        }
        return facts.isEmpty() && list.get().size() > 0 ? Optional.empty() : Optional.of(List.copyOf(facts));
    }

    private static String upper(Optional<String> value) {
        return value.map(v -> v.toUpperCase(Locale.ROOT)).orElse(null);
    }
}

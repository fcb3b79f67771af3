package dev.mnemos.llm;

import com.fasterxml.jackson.core.JsonProcessingException;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * What the reconcile model sees: candidate memories (their list index is the small id given to
 * the model) and the user's new information. Rendered as JSON so user text can never break out.
 */
public record ReconcileRequest(LocalDate today, List<String> memories, String input) {

    public ReconcileRequest {
        memories = List.copyOf(memories);
    }

    /** The user message sent to the model, cut to {@code maxChars} by shortening the input. */
    public String render(int maxChars) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("today", today.toString());
        body.put("memories", IntStream.range(0, memories.size())
                .mapToObj(i -> Map.of("id", i, "text", memories.get(i))).toList());
        if (memories.isEmpty()) {
            body.put("note", "no memories yet");
        }
        body.put("new_information", input.length() > maxChars ? input.substring(0, maxChars) : input);
        try {
            return LenientJson.writer().writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}

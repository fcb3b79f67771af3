package dev.mnemos.llm;

import com.fasterxml.jackson.core.JsonProcessingException;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the extraction model sees: today's date, where the text comes from, and the user's own
 * messages only (never the assistant's), rendered as JSON.
 */
public record ExtractionRequest(LocalDate today, String source, List<String> userMessages) {

    public ExtractionRequest {
        userMessages = List.copyOf(userMessages);
    }

    /** The user message sent to the model; the oldest messages are dropped first beyond {@code maxChars}. */
    public String render(int maxChars) {
        List<String> kept = new ArrayList<>();
        int total = 0;
        for (int i = userMessages.size() - 1; i >= 0; i--) {
            String message = userMessages.get(i);
            if (total + message.length() > maxChars) {
                if (kept.isEmpty()) {
                    kept.add(0, message.substring(0, maxChars));
                }
                break;
            }
            total += message.length();
            kept.add(0, message);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("today", today.toString());
        body.put("source", source);
        body.put("user_messages", kept);
        try {
            return LenientJson.writer().writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}

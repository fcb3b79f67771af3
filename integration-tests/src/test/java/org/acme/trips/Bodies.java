package org.acme.trips;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Reads the chat request bodies the stub received. */
final class Bodies {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Bodies() {
    }

    /** The system message of a chat request body. */
    static String system(String body) {
        try {
            JsonNode first = JSON.readTree(body).path("messages").get(0);
            if (!"system".equals(first.path("role").asText())) {
                throw new AssertionError("the first message is not the system message: " + body);
            }
            return first.path("content").asText();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bodies received since {@code before} of them had been received. */
    static List<String> since(int before) {
        List<String> all = OpenAiStub.bodies();
        return all.subList(before, all.size());
    }
}

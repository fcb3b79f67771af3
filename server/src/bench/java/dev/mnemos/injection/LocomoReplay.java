package dev.mnemos.injection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * LoCoMo conversations as Mnemos tasks: each conversation is a user, each of its sessions a task,
 * each turn a step. The observations LoCoMo lists for a session become that user's profile facts
 * from the next session on, as promotion at task end would make them.
 */
final class LocomoReplay {

    record Turn(String speaker, String text) {
        String line() {
            return speaker + ": " + text;
        }
    }

    record Task(int index, String date, List<Turn> turns, List<String> observations) {
    }

    record Conversation(String id, String speakerA, String speakerB, List<Task> tasks) {
    }

    private LocomoReplay() {
    }

    static List<Conversation> read(File file) throws IOException {
        List<Conversation> conversations = new ArrayList<>();
        for (JsonNode sample : new ObjectMapper().readTree(file)) {
            JsonNode conversation = sample.path("conversation");
            List<Task> tasks = new ArrayList<>();
            for (int k = 1; conversation.has("session_" + k); k++) {
                List<Turn> turns = new ArrayList<>();
                conversation.path("session_" + k)
                        .forEach(t -> turns.add(new Turn(t.path("speaker").asText(), t.path("text").asText())));
                tasks.add(new Task(k, conversation.path("session_" + k + "_date_time").asText(), turns,
                        observations(sample.path("observation").path("session_" + k + "_observation"))));
            }
            conversations.add(new Conversation(sample.path("sample_id").asText(), conversation.path("speaker_a").asText(),
                    conversation.path("speaker_b").asText(), tasks));
        }
        return conversations;
    }

    private static List<String> observations(JsonNode bySpeaker) {
        List<String> facts = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> fields = bySpeaker.fields();
        while (fields.hasNext()) {
            fields.next().getValue().forEach(o -> facts.add(o.path(0).asText()));
        }
        return facts;
    }
}

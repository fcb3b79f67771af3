package dev.mnemos.server.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.agent.offline.OfflineChatModel;

/** Reads what Mnemos sent to the scripted model. */
public final class Prompts {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Prompts() {
    }

    /** The JSON user message of a reconcile or extraction request. */
    public static JsonNode body(ChatRequest request) {
        for (ChatMessage m : request.messages()) {
            if (m instanceof UserMessage user) {
                try {
                    return JSON.readTree(user.singleText());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalStateException("no user message");
    }

    public static String name(ChatRequest request) {
        return OfflineChatModel.promptName(request).orElse("");
    }
}

package dev.mnemos.injection;

import dev.langchain4j.data.message.ChatMessage;

import java.util.List;

/** The chat history Mnemos keeps for a session's AI-service calls, read whole (at task end, for extraction). */
public interface SessionChatHistory {

    /**
     * Every chat window of the session: its shared one first, then each AI service's own
     * ({@code quarkus.mnemos.injection.chat-window=per-service}), each in its order; empty when it has none.
     */
    List<List<ChatMessage>> windows(String sessionId);
}

package dev.mnemos.agent.offline;

import dev.langchain4j.model.chat.request.ChatRequest;

/**
 * Answers one prompt deterministically when no model is configured. Implementations are CDI beans
 * anywhere in the application; {@link OfflineChatModel} picks the one whose {@link #prompt()}
 * matches the {@code #prompt: <name>} marker on the first line of the system message.
 */
public interface OfflineResponder {

    /** The prompt name this responder answers, as in the prompt file's marker line. */
    String prompt();

    /** The model's answer text for this request. */
    String respond(ChatRequest request);
}

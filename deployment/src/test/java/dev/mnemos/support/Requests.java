package dev.mnemos.support;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.injection.block.MemoryBlockRenderer;

/** Reads what a recorded model request carried. */
public final class Requests {

    private Requests() {
    }

    public static String system(ChatRequest request) {
        return request.messages().stream().filter(SystemMessage.class::isInstance)
                .map(m -> ((SystemMessage) m).text()).findFirst().orElseThrow();
    }

    /** The memory block inside a system message, frame included. */
    public static String block(ChatRequest request) {
        String system = system(request);
        int open = system.indexOf(MemoryBlockRenderer.OPEN);
        int close = system.indexOf(MemoryBlockRenderer.CLOSE);
        return system.substring(open, close + MemoryBlockRenderer.CLOSE.length());
    }

    public static String all(ChatRequest request) {
        return request.messages().stream().map(ChatMessage::toString).reduce("", String::concat);
    }
}

package dev.mnemos.agent;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.agent.offline.OfflineChatModel;

/** Reads what was sent to the model in one request. */
final class Prompts {

    private Prompts() {
    }

    static String name(ChatRequest request) {
        return OfflineChatModel.promptName(request).orElse("");
    }

    static String system(ChatRequest request) {
        return request.messages().stream().filter(SystemMessage.class::isInstance).map(m -> ((SystemMessage) m).text())
                .findFirst().orElse("");
    }

    static String user(ChatRequest request) {
        return request.messages().stream().filter(UserMessage.class::isInstance).map(m -> ((UserMessage) m).singleText())
                .reduce((a, b) -> b).orElse("");
    }

    /** The text between two fence lines of the system message, e.g. the memory block. */
    static String fenced(ChatRequest request, String name) {
        String system = system(request);
        int start = system.indexOf("=== " + name);
        int end = system.indexOf("=== END " + name);
        return start < 0 || end < start ? "" : system.substring(system.indexOf('\n', start) + 1, end);
    }

    /** The section {@code ## name} of a brief sent as the user message. */
    static String brief(ChatRequest request, String name) {
        return BriefSections.parse(user(request)).get(name).orElse("");
    }
}

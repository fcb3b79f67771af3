package dev.mnemos.agent.offline;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.agent.*;

/** What the offline model reads from a request: the system text and the user's text. */
record OfflineText(String system, String user) {

    private static final String SCHEMA_MARK = "You must answer strictly";

    static OfflineText of(ChatRequest request) {
        String system = "";
        String user = "";
        for (ChatMessage m : request.messages()) {
            if (m instanceof SystemMessage s) {
                system = s.text();
            } else if (m instanceof UserMessage u && u.hasSingleText()) {
                user = u.singleText();
            }
        }
        int mark = user.indexOf(SCHEMA_MARK);
        return new OfflineText(system, (mark >= 0 ? user.substring(0, mark) : user).strip());
    }

    /** The fenced memory section of the system message. */
    String memory() {
        return fenced("SESSION MEMORY");
    }

    /** The text between {@code === NAME} and {@code === END NAME} in the system message, or "". */
    String fenced(String name) {
        int start = system.indexOf("=== " + name);
        int end = system.indexOf("=== END " + name);
        return start < 0 || end < start ? "" : system.substring(system.indexOf('\n', start) + 1, end);
    }

    /** The language the brief asks for; else ZH when the text is Chinese or the memory asks for Chinese. */
    Language language(String text) {
        String asked = BriefSections.parse(user).get("Language").orElse("");
        if (!asked.isEmpty()) {
            return asked.contains("中文") ? Language.ZH : Language.EN;
        }
        String mem = memory().toLowerCase();
        return Language.of(text) == Language.ZH || mem.contains("中文") || mem.contains("in chinese") ? Language.ZH : Language.EN;
    }
}

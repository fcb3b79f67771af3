package dev.mnemos.agent.offline;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.agent.*;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The offline model's answer to {@code route-intent}: keyword cues in English and Chinese, checked in order. */
@ApplicationScoped
public class OfflineRouter implements OfflineResponder {

    private static final Pattern NUMBERED = Pattern.compile("(?i)\\b(?:v|version|plan|draft)\\s*#?(\\d+)|第\\s*(\\d+)\\s*[版个稿]");
    private static final String ORDINALS_EN = "first original second third fourth fifth";
    private static final String ORDINALS_ZH = "一二三四五";

    private final ObjectMapper json;

    public OfflineRouter(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public String prompt() {
        return "route-intent";
    }

    @Override
    public String respond(ChatRequest request) {
        OfflineText text = OfflineText.of(request);
        String message = text.user().strip();
        Intent intent = classify(message);
        if (intent == Intent.UNRECOGNIZED && answersAQuestion(text.fenced("RECENT CONVERSATION"), message)) {
            intent = Intent.INSUFFICIENT_INFO;
        }
        Integer version = intent == Intent.ROLLBACK_PLAN ? planVersion(message) : null;
        return OfflineJson.write(json, new Routing(intent, version, "offline model: keyword cues"));
    }

    static Intent classify(String m) {
        if (m.codePoints().noneMatch(Character::isLetterOrDigit))
            return Intent.UNRECOGNIZED;
        if (Cues.ROLLBACK.in(m))
            return Intent.ROLLBACK_PLAN;
        if (Cues.END.in(m))
            return Intent.END_TASK;
        if (Cues.REVISE.in(m))
            return Intent.REVISE_PLAN;
        if (Cues.READY.in(m))
            return Intent.READY_TO_DECOMPOSE;
        boolean task = Cues.GOAL.in(m) || Cues.TASK_CONTENT.in(m);
        if (Cues.VENTING.in(m) && !task)
            return Intent.VENTING;
        return task ? Intent.INSUFFICIENT_INFO : Intent.UNRECOGNIZED;
    }

    /** A short reply right after the agent asked a question is taken as its answer ("two weeks", "随便"). */
    static boolean answersAQuestion(String history, String message) {
        String last = history.strip().lines().reduce((a, b) -> b).orElse("");
        boolean asked = last.startsWith("assistant:") && (last.endsWith("?") || last.endsWith("？"));
        return asked && message.codePoints().anyMatch(Character::isLetterOrDigit);
    }

    /** The plan version a rollback message names; null for "the previous one". */
    static Integer planVersion(String m) {
        Matcher n = NUMBERED.matcher(m);
        if (n.find()) {
            return Integer.valueOf(n.group(1) != null ? n.group(1) : n.group(2));
        }
        String lower = m.toLowerCase();
        String[] words = ORDINALS_EN.split(" ");
        for (int i = 0; i < words.length; i++) {
            if (lower.contains(words[i] + " "))
                return Math.max(1, i);
        }
        for (int i = 0; i < ORDINALS_ZH.length(); i++) {
            if (m.contains("第" + ORDINALS_ZH.charAt(i)))
                return i + 1;
        }
        return m.contains("最初") || m.contains("原来") || m.contains("最早") ? Integer.valueOf(1) : null;
    }
}

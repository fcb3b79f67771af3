package dev.mnemos.agent.offline;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.agent.*;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;

/**
 * The offline model's answer to {@code decompose-plan}. Version 1 is a generic four-step outline of
 * the goal; a rewrite keeps the previous steps and adds what the evaluation asks for: one step per
 * constraint (quoted), a timeline and a checkpoint, plus the user's remarks.
 */
@ApplicationScoped
public class OfflineDecomposer implements OfflineResponder {

    private final ObjectMapper json;

    public OfflineDecomposer(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public String prompt() {
        return "decompose-plan";
    }

    @Override
    public String respond(ChatRequest request) {
        OfflineText text = OfflineText.of(request);
        BriefSections brief = BriefSections.parse(text.user());
        String goal = brief.get("Goal").orElse("the goal");
        OfflinePlanText words = OfflinePlanText.of(text.language(goal + brief.get("Constraints").orElse("")));
        List<String> steps = new ArrayList<>(brief.get("Previous plan").map(OfflineDecomposer::steps)
                .orElseGet(() -> words.outline(goal)));
        if (brief.get("Previous plan").isPresent()) {
            String feedback = brief.get("Feedback").orElse("");
            brief.items("Constraints").stream().filter(c -> steps.stream().noneMatch(s -> s.contains(c)))
                    .forEach(c -> steps.add(1, words.respect(c)));
            if (feedback.contains(words.timelineCue()))
                steps.add(words.timeline());
            if (feedback.contains(words.checkpointCue()))
                steps.add(words.checkpoint(goal));
            brief.get("User remarks").ifPresent(r -> steps.add(steps.size() - 1, words.remark(r)));
        }
        return OfflineJson.write(json, new Plan(words.title(goal), steps));
    }

    /** The step texts of a stored plan version: its numbered lines without the numbers. */
    static List<String> steps(String plan) {
        return plan.lines().filter(l -> l.matches("^\\d+\\. .*")).map(l -> l.replaceFirst("^\\d+\\. ", "")).toList();
    }
}

package dev.mnemos.agent.offline;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.agent.*;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;

/**
 * The offline model's answer to {@code evaluate-plan}: a checklist. Goal mentioned 2 points, at
 * least three steps 2, every constraint quoted 3 (shared among them), a timeline 1.5, a checkpoint
 * 1.5. The feedback names each missing item.
 */
@ApplicationScoped
public class OfflineEvaluator implements OfflineResponder {

    private final ObjectMapper json;

    public OfflineEvaluator(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public String prompt() {
        return "evaluate-plan";
    }

    @Override
    public String respond(ChatRequest request) {
        OfflineText text = OfflineText.of(request);
        BriefSections brief = BriefSections.parse(text.user());
        String goal = brief.get("Goal").orElse("");
        String plan = brief.get("Plan").orElse("");
        OfflinePlanText words = OfflinePlanText.of(text.language(goal + brief.get("Constraints").orElse("")));
        List<String> feedback = new ArrayList<>();
        double score = check(!goal.isEmpty() && plan.contains(goal), 2, words.missingGoal(), feedback)
                + check(OfflineDecomposer.steps(plan).size() >= 3, 2, words.tooShort(), feedback);
        List<String> constraints = brief.items("Constraints");
        for (String c : constraints) {
            score += check(plan.contains(c), 3.0 / constraints.size(), words.missingConstraint(c), feedback);
        }
        score += constraints.isEmpty() ? 3 : 0;
        score += check(plan.contains(words.timelineCue()), 1.5, words.missingTimeline(), feedback)
                + check(plan.contains(words.checkpointCue()), 1.5, words.missingCheckpoint(), feedback);
        String joined = feedback.isEmpty() ? words.complete()
                : String.join(words.language() == Language.ZH ? "；" : "; ", feedback);
        return OfflineJson.write(json, new Evaluation(Math.round(score * 10) / 10.0, joined));
    }

    private static double check(boolean ok, double points, String missing, List<String> feedback) {
        if (!ok) {
            feedback.add(missing);
        }
        return ok ? points : 0;
    }
}

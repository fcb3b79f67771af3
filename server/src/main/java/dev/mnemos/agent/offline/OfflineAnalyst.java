package dev.mnemos.agent.offline;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.agent.*;
import dev.mnemos.promotion.StatementReader;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;

/**
 * The offline model's answer to {@code analyze-requirements}: the message is cut into clauses (as
 * promotion cuts it, {@link StatementReader#clauses}, so a standing clause keeps its marker); a
 * clause with a goal cue is the goal, every other clause with a cue is a finding whose scope comes
 * from "this time"/"always" markers. The question asks for the first of goal, time frame, budget
 * that is still unknown.
 */
@ApplicationScoped
public class OfflineAnalyst implements OfflineResponder {

    private final ObjectMapper json;
    private final StatementReader statements;

    public OfflineAnalyst(ObjectMapper json, StatementReader statements) {
        this.json = json;
        this.statements = statements;
    }

    @Override
    public String prompt() {
        return "analyze-requirements";
    }

    @Override
    public String respond(ChatRequest request) {
        OfflineText text = OfflineText.of(request);
        BriefSections brief = BriefSections.parse(text.user());
        String message = brief.get("Message").orElse("");
        String goal = null;
        List<Finding> findings = new ArrayList<>();
        for (String clause : statements.clauses(message)) {
            if (goal == null && brief.get("Goal").isEmpty() && Cues.GOAL.in(clause)) {
                goal = OfflineClauses.goal(clause);
            } else {
                OfflineClauses.finding(clause, statements.read(clause).scope()).ifPresent(findings::add);
            }
        }
        String known = brief.get("Goal").orElse(goal) + "\n" + String.join("\n", brief.items("Constraints")) + "\n"
                + findings.stream().map(Finding::text).toList();
        boolean hasGoal = goal != null || brief.get("Goal").isPresent();
        String question = OfflineClauses.question(hasGoal, known, text.language(message));
        return OfflineJson.write(json, new Requirements(goal, findings, question));
    }
}

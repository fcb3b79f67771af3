package dev.mnemos.agent;

import java.util.List;

/**
 * The requirement analyst's answer for one user message.
 *
 * @param goal the goal stated in this message, or null when it states none
 * @param findings constraints and preferences stated in this message; never null
 * @param question the one most useful question still open, or null when there is enough to plan
 */
public record Requirements(String goal, List<Finding> findings, String question) {

    public Requirements {
        findings = findings == null ? List.of()
                : findings.stream().filter(f -> f != null && f.text() != null
                        && !f.text().isBlank()).toList();
        goal = goal == null || goal.isBlank() ? null : goal.strip();
        question = question == null || question.isBlank() ? null : question.strip();
    }
}

package dev.mnemos.agent.offline;

import dev.mnemos.agent.*;
import dev.mnemos.session.Scope;

import java.util.Optional;
import java.util.regex.Pattern;

/** How the offline model reads one clause of a user message. */
final class OfflineClauses {

    private static final Pattern GOAL_LEAD = Pattern.compile(
            "(?i)^.*?\\b(i want to|i'?d like to|i would like to|i need to|help me( to)?|my goal is( to)?|i'?m planning to|i plan to|i am planning to|we want to|we need to|i'?m trying to)\\s+|^.*?(我想要|我想|我要|想要|帮我|我的目标是|目标是|打算|准备)");

    private OfflineClauses() {
    }

    static String goal(String clause) {
        String goal = GOAL_LEAD.matcher(clause).replaceFirst("").strip();
        return goal.isEmpty() ? clause.strip() : goal;
    }

    static Optional<Finding> finding(String clause) {
        return finding(clause, Scope.UNKNOWN);
    }

    /** @param read the clause's scope as promotion reads it; a standing reading wins over the cue words */
    static Optional<Finding> finding(String clause, Scope read) {
        Scope scope = read == Scope.STABLE || Cues.STABLE_SCOPE.in(clause) ? Scope.STABLE
                : Cues.TASK_SCOPE.in(clause) ? Scope.TASK : Scope.UNKNOWN;
        if (Cues.LANGUAGE.in(clause)) {
            return Optional.of(new Finding(clause, Finding.Kind.INSTRUCTION, scope, "output.language"));
        }
        if (Cues.FORMAT.in(clause) && (scope == Scope.STABLE || Cues.PREFERENCE.in(clause))) {
            return Optional.of(new Finding(clause, Finding.Kind.INSTRUCTION, scope, "output.format"));
        }
        if (Cues.PREFERENCE.in(clause)) {
            return Optional.of(new Finding(clause, Finding.Kind.PREFERENCE, scope, null));
        }
        if (Cues.FACT.in(clause)) {
            return Optional.of(new Finding(clause, Finding.Kind.FACT, scope, null));
        }
        if (Cues.CONSTRAINT.in(clause) || Cues.TIME.in(clause) || Cues.BUDGET.in(clause)) {
            boolean taskByNature = scope == Scope.UNKNOWN && (Cues.TIME.in(clause) || Cues.BUDGET.in(clause));
            return Optional.of(new Finding(clause, Finding.Kind.CONSTRAINT, taskByNature ? Scope.TASK : scope, null));
        }
        return Optional.empty();
    }

    /** The first of goal, time frame and budget that nothing known mentions, or null. */
    static String question(boolean hasGoal, String known, Language lang) {
        if (!hasGoal) {
            return Phrase.ASK_GOAL.in(lang);
        }
        if (!Cues.TIME.in(known)) {
            return lang == Language.ZH ? "你有多少时间，或者需要在什么时候之前完成？" : "How much time do you have, or by when must it be done?";
        }
        if (!Cues.BUDGET.in(known)) {
            return lang == Language.ZH ? "这次你能投入多少预算或资源？" : "What budget or resources can you put into it this time?";
        }
        return null;
    }
}

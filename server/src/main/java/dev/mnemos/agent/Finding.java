package dev.mnemos.agent;

import dev.mnemos.session.Scope;

/**
 * One piece of information found in a user message.
 *
 * @param text the information in the user's words and language
 * @param kind a constraint on this task, or something about the user
 * @param scope TASK for this task only ("this time", "这次"), STABLE for standing ("always", "以后都")
 * @param slot a profile slot such as {@code output.language} when one fits, else null
 * @param evidence the exact words of the message that state it (only those: a "this time" elsewhere in
 *        the message must not make a standing preference look task-scoped); the text when absent
 */
public record Finding(String text, Kind kind, Scope scope, String slot, String evidence) {

    public enum Kind {
        CONSTRAINT,
        PREFERENCE,
        FACT,
        INSTRUCTION
    }

    public Finding {
        kind = kind == null ? Kind.CONSTRAINT : kind;
        scope = scope == null ? Scope.UNKNOWN : scope;
        evidence = evidence == null || evidence.isBlank() ? text : evidence;
    }

    public Finding(String text, Kind kind, Scope scope, String slot) {
        this(text, kind, scope, slot, text);
    }
}

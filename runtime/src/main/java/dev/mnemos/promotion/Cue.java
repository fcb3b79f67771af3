package dev.mnemos.promotion;

import java.util.Locale;

/**
 * The kinds of words a language file lists (one JSON array per cue, named in lower camel case:
 * {@code oneOff}). Each entry is a regular expression, matched case-insensitively anywhere in a
 * clause unless it is anchored.
 */
public enum Cue {
    /**
     * "forget that …", "忘记…", "olvida que …", "vergiss, dass …", "oublie que …", "…ことを忘れて": the user asks for
     * something to be forgotten. With a statement about the user after it, a forget request: never a fact.
     */
    FORGET,
    /** "from now on", "always", "以后都": the user says it holds from now on. */
    STANDING,
    /** "I never", "as a rule", "in general", "我一般", "I no longer": a habit, standing without the usual markers. */
    HABITUAL,
    /**
     * "every morning", "on weekends", "rarely", "每天", "tous les matins": how often something happens. A habit
     * when the clause speaks about the user and asks for nothing ("I run every morning"); a schedule of the
     * work at hand otherwise ("plan a museum every day").
     */
    FREQUENCY,
    /** "I prefer", "I'm vegetarian", "我喜欢": a first-person statement of a lasting property. */
    PROPERTY,
    /** "remember (that) I …": the user asks for a personal fact to be kept. */
    KEEP,
    /** "this time", "today", "这次": holds for this task only. */
    TEMPORARY,
    /** "this report", "the second option": the clause is about an object of this task. */
    DEIXIS,
    /** Budgets, prices, deadlines, counts: details of this task (they lose to a standing cue in the same clause). */
    TASK,
    /** "I had milk today so no crab": a one-off circumstance given as the reason. */
    ONE_OFF,
    /** "my flight was moved to 9 am": a dated event, not a preference. */
    EVENT,
    /** "find", "book", "I need", "no flights": a request or constraint on the work at hand. */
    REQUEST,
    /**
     * "I", "me", "my", "我", "私": the clause speaks about the user. A clause with no other cue is kept for
     * confirmation only when it does; otherwise it is taken as said about the work at hand.
     */
    PERSONAL,
    /**
     * "I", "ich", "je", "soy", "我" opening a clause: the user as the subject of a statement. Where a request runs
     * on into a statement without a mark between them, the statement starts there ({@link Clauses}).
     */
    SUBJECT,
    /** "not", "never", "no longer", "不": the statement is negative (for contradictions). */
    NEGATION,
    /** "because", "因为": a clause opening with it stays with the clause after it. */
    REASON,
    /** "so", "所以": a clause opening with it stays with the clause before it. */
    CONSEQUENCE,
    /** "and", "but", "而且": a leading connector, dropped from the clause text. */
    CONNECTOR,
    /** Where a sentence splits besides commas ("… but …", "… and always …"). */
    SPLIT;

    /** The JSON field name: {@code ONE_OFF} → {@code oneOff}. */
    public String field() {
        String[] parts = name().toLowerCase(Locale.ROOT).split("_");
        StringBuilder name = new StringBuilder(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            name.append(Character.toUpperCase(parts[i].charAt(0))).append(parts[i].substring(1));
        }
        return name.toString();
    }
}

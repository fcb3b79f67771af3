package dev.mnemos.promotion;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The words of one language that tell how long something holds. Matching is case-insensitive
 * substring matching on the user's words; {@code taskPatterns} catch budgets, deadlines and other
 * one-off circumstances that carry no marker word.
 */
public interface MarkerSet {

    /** The language, for reasons ("en", "zh"). */
    String language();

    /** "from now on", "always", "以后都" … : the user says it is standing. */
    List<String> standing();

    /** "this time", "today", "本次" … : the user says it holds for this task only. */
    List<String> temporary();

    /** Budgets, deadlines, one-off circumstances. */
    List<Pattern> taskPatterns();
}

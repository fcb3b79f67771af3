package dev.mnemos.profile;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Deterministic slot detection for the structured preferences every user has at most one of:
 * output language, output format, where the user lives. English and Chinese phrasings.
 */
public final class SlotRules {

    /** A detected slot and the category of facts that fill it. */
    public record Slot(String name, Category category) {
    }

    private record Rule(Slot slot, Pattern pattern) {
    }

    private static final String LANGUAGES = "english|chinese|mandarin|cantonese|japanese|korean|french|german|spanish|italian|portuguese|russian|arabic";
    private static final String ZH_LANGUAGES = "中文|英文|英语|汉语|普通话|粤语|日语|日文|韩语|法语|德语|西班牙语";
    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;

    private static final List<Rule> RULES = List.of(
            new Rule(new Slot("output.language", Category.LANGUAGE), Pattern.compile(
                    "\\b(reply|replies|answer|answers|respond|write|speak|talk|language)\\b.*\\b(" + LANGUAGES + ")\\b"
                            + "|\\bin (" + LANGUAGES + ")\\b|(用|说|讲|以)(" + ZH_LANGUAGES + ")|(" + ZH_LANGUAGES
                            + ")(回答|回复|交流|输出)",
                    FLAGS)),
            new Rule(new Slot("output.format", Category.FORMAT), Pattern.compile(
                    "\\b(bullet points?|bulleted|markdown|tables?|numbered lists?|plain text|json)\\b.*\\b(format|answers?|replies|responses?|output)\\b"
                            + "|\\b(format|answers?|replies|responses?|output)\\b.*\\b(bullet points?|markdown|tables?|numbered lists?|plain text)\\b"
                            + "|(用|以)(表格|列表|要点|markdown)",
                    FLAGS)),
            new Rule(new Slot("home.location", Category.PERSONA), Pattern.compile(
                    "\\bI (live|am living|'m living|am based|'m based) in\\b|\\bwhere I live\\b|\\bmy home (town|city)\\b|住在|住哪|我的住址",
                    FLAGS)));

    private SlotRules() {
    }

    /** The slot {@code text} speaks about, if it matches one of the rules. */
    public static Optional<Slot> detect(String text) {
        return RULES.stream().filter(r -> r.pattern().matcher(text).find()).map(Rule::slot).findFirst();
    }
}

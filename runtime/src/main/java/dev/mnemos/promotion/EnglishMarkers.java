package dev.mnemos.promotion;

import java.util.List;
import java.util.regex.Pattern;

/** English scope markers. */
public final class EnglishMarkers implements MarkerSet {

    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    private static final String TRANSIENT = "had|have had|ate|just ate|drank|hurt|hurts|injured|sprained|broke|"
            + "am sick|feel sick|feeling sick|am ill|am tired|feel tired|exhausted|have a cold|have a fever|hungover";

    @Override
    public String language() {
        return "en";
    }

    @Override
    public List<String> standing() {
        return List.of("from now on", "always", "every time", "everytime", "in future", "in the future", "going forward",
                "from here on", "never ", "by default", "as a rule", "all the time", "whenever", "remember that");
    }

    @Override
    public List<String> temporary() {
        return List.of("this time", "today", "tonight", "this week", "this weekend", "this trip", "for this task",
                "for this one", "for now", "just now", "right now", "at the moment", "this once", "just once",
                "tomorrow", "this evening", "this morning", "for this project", "in this task", "in this session");
    }

    @Override
    public List<Pattern> taskPatterns() {
        return List.of(
                Pattern.compile("\\bbudget\\b|[$€£¥]\\s?\\d|\\d\\s?(usd|eur|gbp|rmb|cny|dollars?|euros?)\\b", FLAGS),
                Pattern.compile(
                        "\\bdeadline\\b|\\bdue (by|on)\\b|\\bby (monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|noon)\\b",
                        FLAGS),
                // a one-off circumstance (something eaten, an injury, an illness) given as the reason
                Pattern.compile("\\b(" + TRANSIENT + ")\\b.*\\b(so|therefore)\\b", FLAGS),
                Pattern.compile("\\b(because|since|as)\\b.*\\b(" + TRANSIENT + ")\\b", FLAGS));
    }
}

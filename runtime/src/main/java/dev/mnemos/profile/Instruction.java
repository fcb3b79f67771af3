package dev.mnemos.profile;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a natural-language profile instruction asks for, read deterministically: forget something,
 * stop holding something ("I no longer …"), or remember something (the default).
 */
public sealed interface Instruction {

    /** The instruction as the user wrote it. */
    String original();

    /** "forget where I live": {@code target} is what to forget. */
    record Forget(String original, String target) implements Instruction {
    }

    /** "I no longer like pizza": {@code subject} is what stopped being true ("like pizza"). */
    record NoLonger(String original, String subject) implements Instruction {
    }

    /** "remember I live in Shanghai": {@code text} is the fact ("I live in Shanghai"). */
    record Remember(String original, String text) implements Instruction {
    }

    int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    List<Pattern> FORGET = List.of(
            Pattern.compile("^\\s*(please\\s+)?forget\\s+(that\\s+|about\\s+)?(?<t>.+?)[.!。！]*\\s*$", FLAGS),
            Pattern.compile("^\\s*(请)?(忘记|忘掉|删掉|删除)(关于)?(?<t>.+?)[.!。！]*\\s*$", FLAGS));
    List<Pattern> NO_LONGER = List.of(
            Pattern.compile("^\\s*I\\s+(?:do\\s+)?no\\s+longer\\s+(?<t>.+?)[.!。！]*\\s*$", FLAGS),
            Pattern.compile("^\\s*I\\s+don'?t\\s+(?<t>.+?)\\s+any\\s*more[.!。！]*\\s*$", FLAGS),
            Pattern.compile("^\\s*我(已经)?不再(?<t>.+?)[.!。！了]*\\s*$", FLAGS));
    Pattern REMEMBER = Pattern.compile("^\\s*(?:please\\s+)?(?:remember|note)(?:\\s+that)?[\\s:,]+|^\\s*(?:请)?记住[：:，,\\s]*",
            FLAGS);

    static Instruction parse(String text) {
        Optional<String> forget = first(FORGET, text);
        if (forget.isPresent()) {
            return new Forget(text, forget.get());
        }
        Optional<String> noLonger = first(NO_LONGER, text);
        if (noLonger.isPresent()) {
            return new NoLonger(text, noLonger.get());
        }
        return new Remember(text, REMEMBER.matcher(text).replaceFirst("").strip());
    }

    private static Optional<String> first(List<Pattern> patterns, String text) {
        for (Pattern p : patterns) {
            Matcher m = p.matcher(text);
            if (m.matches()) {
                return Optional.of(m.group("t").strip());
            }
        }
        return Optional.empty();
    }
}

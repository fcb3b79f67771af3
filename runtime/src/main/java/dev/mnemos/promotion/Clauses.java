package dev.mnemos.promotion;

import dev.mnemos.session.Scope;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a user's message into clauses that are decided alone. Sentences split at their end
 * punctuation; inside a sentence, at commas (and brackets, colons, dashes, a space in Chinese or
 * Japanese) and at each language's {@link Cue#SPLIT} points. Then
 * fragments that cannot stand alone are put back: a bare lead ("From now on,", "这次，") joins the
 * clause after it, so a standing clause keeps its marker; a reason ("because …", "…から") joins the
 * clause after it and a consequence ("so …", "所以 …") the clause before, so "I had milk today, so
 * no crab" stays one; a fragment with no cue of its own joins its neighbour. What is left are
 * clauses that read differently, such as "For this report use bullet points" and "always cite
 * sources". Last, a request run on into a statement about the user is cut before its subject. Pure.
 */
final class Clauses {

    private static final Pattern SENTENCE = Pattern.compile("(?<!\\d)[.](?!\\d)|[!?;]|[。！？；\\n]+");
    /**
     * Commas, and marks that set a remark apart as a comma does: brackets, a colon (not in a time), a dash (not in a
     * range), or a space between two words of a script written without spaces.
     */
    private static final Pattern COMMA = Pattern.compile("[,，、()（）]|(?<!\\d)[:：](?!\\d)|\\s-\\s|(?<!\\d)[—–]+(?!\\d)"
            + "|(?<=[\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}])\\s+(?=[\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}])");
    /** Chinese words after which "我" is an object, not a subject ("帮我订", "给我找"). */
    private static final String OBJECT = "帮给让跟对替叫和与请";
    private static final Pattern LETTER = Pattern.compile("\\p{L}");
    private static final Pattern CJK = Pattern.compile("[\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}]");

    private final Markers markers;

    Clauses(Markers markers) {
        this.markers = markers;
    }

    /** The clauses of {@code text} in order, stripped; empty for blank text. */
    List<String> split(String text) {
        List<String> clauses = new ArrayList<>();
        for (String sentence : SENTENCE.split(text == null ? "" : text)) {
            merge(sentence, fragments(sentence)).forEach(c -> clauses.addAll(runOn(c)));
        }
        return clauses;
    }

    /** [start, end) stretches of {@code sentence} between commas and split points, leading connectors dropped. */
    private List<int[]> fragments(String sentence) {
        List<int[]> cuts = new ArrayList<>();
        collect(COMMA.matcher(sentence), cuts);
        markers.patterns(Cue.SPLIT).forEach(p -> collect(p.matcher(sentence), cuts));
        cuts.sort((a, b) -> Integer.compare(a[0], b[0]));
        List<int[]> pieces = new ArrayList<>();
        int from = 0;
        for (int[] cut : cuts) {
            if (cut[0] >= from) {
                add(sentence, from, cut[0], pieces);
                from = cut[1];
            }
        }
        add(sentence, from, sentence.length(), pieces);
        return pieces;
    }

    private static void collect(Matcher m, List<int[]> cuts) {
        while (m.find()) {
            cuts.add(new int[] { m.start(), m.end() });
        }
    }

    private void add(String sentence, int start, int end, List<int[]> pieces) {
        String piece = sentence.substring(start, end);
        int lead = piece.length() - piece.stripLeading().length();
        String rest = piece.strip();
        for (Pattern p : starts(Cue.CONSEQUENCE, rest) ? List.<Pattern> of() : markers.patterns(Cue.CONNECTOR)) {
            Matcher m = p.matcher(rest);
            if (m.lookingAt() && m.end() < rest.length()) {
                lead += m.end();
                rest = rest.substring(m.end());
                break;
            }
        }
        if (!rest.isBlank()) {
            int s = start + lead;
            pieces.add(new int[] { s, s + rest.stripTrailing().length() });
        }
    }

    private List<String> merge(String sentence, List<int[]> pieces) {
        List<int[]> out = new ArrayList<>();
        int[] held = null;
        for (int[] piece : pieces) {
            int[] p = held == null ? piece : new int[] { held[0], piece[1] };
            held = null;
            String text = sentence.substring(p[0], p[1]);
            if (!out.isEmpty() && starts(Cue.CONSEQUENCE, text)) {
                out.get(out.size() - 1)[1] = p[1];
            } else if (leadOnly(text) || starts(Cue.REASON, text) || endsWithReason(text)) {
                held = p;
            } else if (!out.isEmpty() && joins(slice(sentence, out.get(out.size() - 1)), text)) {
                out.get(out.size() - 1)[1] = p[1];
            } else {
                out.add(p);
            }
        }
        if (held != null) {
            if (out.isEmpty() || apart(slice(sentence, out.get(out.size() - 1)), slice(sentence, held))) {
                out.add(held);
            } else {
                out.get(out.size() - 1)[1] = held[1];
            }
        }
        return out.stream().map(p -> slice(sentence, p)).filter(c -> LETTER.matcher(c).find()).toList();
    }

    /**
     * A request run on into a statement about the user with no mark between them is two clauses: "Book a table for
     * Friday I'm vegetarian", "订去成都的机票我从来不坐红眼航班". The clause is cut before a first-person subject
     * ({@link Cue#SUBJECT}) when the part before reads task-scoped and the part after standing, and either the whole
     * would read standing, so the request would reach the profile with it, or the statement is in a script that puts
     * relative clauses before their noun (Chinese, Japanese), so it cannot be a relative clause of the request.
     */
    private List<String> runOn(String clause) {
        if (markers.read(clause).kind() == Reading.Kind.FORGET) {
            return List.of(clause);
        }
        boolean whole = markers.read(clause).scope() == Scope.STABLE;
        for (int cut = 1; cut < clause.length(); cut++) {
            if (!subjectAt(clause, cut)) {
                continue;
            }
            String head = clause.substring(0, cut).strip();
            String tail = clause.substring(cut).strip();
            boolean apart = whole || CJK.matcher(tail.substring(0, 1)).matches();
            if (apart && LETTER.matcher(head).results().count() >= 2 && markers.read(head).scope() == Scope.TASK
                    && markers.read(tail).scope() == Scope.STABLE) {
                return List.of(head, tail);
            }
        }
        return List.of(clause);
    }

    /** Whether a first-person subject starts at {@code at}, after a space or, in Chinese, not as an object ("帮我"). */
    private boolean subjectAt(String clause, int at) {
        char before = clause.charAt(at - 1);
        boolean cjk = CJK.matcher(String.valueOf(before)).matches();
        if (!(Character.isWhitespace(before) || cjk && OBJECT.indexOf(before) < 0)) {
            return false;
        }
        return markers.patterns(Cue.SUBJECT).stream().anyMatch(p -> p.matcher(clause).region(at, clause.length()).lookingAt());
    }

    private static String slice(String sentence, int[] p) {
        return sentence.substring(p[0], p[1]).strip();
    }

    /**
     * Whether {@code text} joins the clause before it: when one of them has no cue of its own ("I like jazz,
     * blues and soul", "I've moved, I live in Denver now"), unless that would carry a request-like fragment
     * into a standing clause ("Rewrite this cover letter, and from now on use British spelling") or put a
     * statement about the user under the request before it ("Plan Saturday's hike, I'm not a morning person").
     */
    private boolean joins(String before, String text) {
        boolean loose = none(text);
        if (!loose && !none(before)) {
            return false;
        }
        String fragment = loose ? text : before;
        String other = loose ? before : text;
        if (markers.read(other).scope() == Scope.STABLE && wordy(fragment) && !markers.personal(fragment)) {
            return false;
        }
        return !(loose && markers.personal(text) && markers.read(before).scope() == Scope.TASK);
    }

    /** A trailing reason that is standing stays apart from the request before it ("探して、たいてい…着くので"). */
    private boolean apart(String before, String reason) {
        return markers.read(reason).scope() == Scope.STABLE && markers.read(before).scope() == Scope.TASK;
    }

    /** A fragment of at least four words (or six characters in a script written without spaces). */
    private static boolean wordy(String text) {
        String words = text.strip();
        return words.split("\\s+").length >= 4 || CJK.matcher(words).results().count() >= 6;
    }

    private boolean none(String text) {
        return markers.read(text).kind() == Reading.Kind.NONE;
    }

    /** A fragment that is only a lead marker ("From now on", "这次", "In general"). */
    private boolean leadOnly(String text) {
        String rest = markers.without(text, Cue.FORGET, Cue.STANDING, Cue.TEMPORARY, Cue.HABITUAL, Cue.CONNECTOR);
        return !rest.equals(text.strip()) && LETTER.matcher(rest).results().count() < 2;
    }

    private boolean starts(Cue cue, String text) {
        return markers.patterns(cue).stream().anyMatch(p -> {
            Matcher m = p.matcher(text);
            return m.lookingAt() && !p.pattern().endsWith("$");
        });
    }

    /** A fragment ending in a reason marker (Japanese "…から", "…ので"). */
    private boolean endsWithReason(String text) {
        return markers.patterns(Cue.REASON).stream().filter(p -> p.pattern().endsWith("$"))
                .anyMatch(p -> p.matcher(text).find());
    }
}

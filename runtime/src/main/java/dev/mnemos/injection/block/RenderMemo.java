package dev.mnemos.injection.block;

import dev.mnemos.injection.BlockText;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * What the recent renders of a session's memory block counted, quoted and cut, kept for the session's
 * next render (an answer is kept until {@value #KEPT_RENDERS} renders in a row did not ask for it). Most of a block is the same
 * from one step to the next, and the next render asks for the
 * same texts in the same order, so a text is looked up by equality, starting where the previous
 * match left off: no hashing (a session's strings are new objects at every read, so each hash would
 * be computed again over the whole text) and no shared table to search. Every memoized function is
 * pure, so a render with a memo gives exactly the block a render without one gives.
 * <p>
 * A memo is immutable; a render reads one and makes the next ({@link Use#next()}), so two concurrent
 * steps of one session each render correctly (the memo the later one leaves wins).
 */
final class RenderMemo {

    /** Nothing remembered: the first render of a session, or a render outside a step. */
    static final RenderMemo EMPTY = new RenderMemo(new Object[0], new Object[0], new int[0], 0, 0);
    /**
     * Renders an answer is kept after the last one that asked for it: a section's share moves by a token
     * or two from step to step (the lines before it changed a little), so the same cut of a long text,
     * and its line, come back a few steps later.
     */
    static final int KEPT_RENDERS = 8;
    /** How far back in its own answers a render looks for a text it has just been asked. */
    private static final int RECENT = 16;

    /** A cut of {@code text} to {@code maxTokens} tokens: its start ({@code atEnd} false) or its end. */
    record Cut(String text, int maxTokens, boolean atEnd) {
    }

    /**
     * What was asked, in the order the last render asked it, then what earlier renders asked and the last
     * did not: a line (its cost), a value (its quote) or a {@link Cut}.
     */
    private final Object[] keys;
    private final Object[] answers;
    /** For each key, how many renders ago it was last asked for (0: by the last one). */
    private final int[] ages;
    /** How many of the keys, from the first, the render that made this memo asked for (the rest it carried). */
    private final int asked;
    private final long chars;

    private RenderMemo(Object[] keys, Object[] answers, int[] ages, int asked, long chars) {
        this.keys = keys;
        this.answers = answers;
        this.ages = ages;
        this.asked = asked;
        this.chars = chars;
    }

    /** Whether answer {@code i}, when not asked for, is still kept a render older. */
    private boolean outlivesARender(int i) {
        return ages[i] + 1 < KEPT_RENDERS;
    }

    /** Characters this memo holds on to (the texts it remembers and their answers), for a bounded cache. */
    long chars() {
        return chars;
    }

    /** How many answers this memo holds. */
    int size() {
        return keys.length;
    }

    /** One render's use of this memo: lookups and what the next memo remembers. */
    Use use() {
        return new Use();
    }

    final class Use {

        private final List<Object> nextKeys = new ArrayList<>(Math.max(16, keys.length));
        private final List<Object> nextAnswers = new ArrayList<>(Math.max(16, keys.length));
        private final boolean[] asked = new boolean[keys.length];
        private int cursor;

        private Use() {
        }

        /**
         * What {@code key} was answered in the previous render, or a little earlier in this one (a changed
         * value's line is costed twice in a row: to decide on a cut, then in its section), or null.
         */
        private Object recall(Object key) {
            int n = keys.length;
            for (int k = 0; k < n; k++) {
                int i = cursor + k < n ? cursor + k : cursor + k - n;
                if (keys[i].equals(key)) {
                    cursor = i + 1 < n ? i + 1 : 0;
                    asked[i] = true;
                    return answers[i];
                }
            }
            for (int i = nextKeys.size() - 1; i >= Math.max(0, nextKeys.size() - RECENT); i--) {
                Object recent = nextKeys.get(i);
                if (recent.equals(key)) {
                    return nextAnswers.get(i);
                }
            }
            return null;
        }

        private <T> T keep(Object key, T answer) {
            nextKeys.add(key);
            nextAnswers.add(answer);
            return answer;
        }

        /** The cost of {@code line} in the budget, counted by {@code counter} when not remembered. */
        int cost(String line, ToIntFunction<String> counter) {
            Object known = recall(line);
            return keep(line, known instanceof Integer count ? count : counter.applyAsInt(line));
        }

        /** {@link BlockText#quote} of {@code value}. */
        String quote(String value) {
            Quoted key = new Quoted(value);
            Object known = recall(key);
            return keep(key, known instanceof String quoted ? quoted : BlockText.quote(value));
        }

        /** The cut {@code cutter} makes of {@code cut}'s text, remembered as such. */
        String cut(Cut cut, Function<Cut, String> cutter) {
            Object known = recall(cut);
            return keep(cut, known instanceof String text ? text : cutter.apply(cut));
        }

        /** Whether the previous renders left anything to look up (else this is the session's first render). */
        boolean recalls() {
            return keys.length > 0;
        }

        /** The memo the session's next render uses: what this render asked, then what it kept of earlier ones. */
        RenderMemo next() {
            int size = nextKeys.size();
            for (int i = 0; i < keys.length; i++) {
                size += carried(i) ? 1 : 0;
            }
            Object[] k = new Object[size];
            Object[] a = new Object[size];
            int[] g = new int[size];
            int at = 0;
            for (; at < nextKeys.size(); at++) {
                k[at] = nextKeys.get(at);
                a[at] = nextAnswers.get(at);
            }
            for (int i = 0; i < keys.length; i++) {
                if (carried(i)) {
                    k[at] = keys[i];
                    a[at] = answers[i];
                    g[at++] = ages[i] + 1;
                }
            }
            long held = 0;
            for (int i = 0; i < size; i++) {
                held += weight(k[i], a[i]);
            }
            return new RenderMemo(k, a, g, nextKeys.size(), held);
        }

        /** Whether the previous answer {@code i}, not asked for by this render, is still kept. */
        private boolean carried(int i) {
            return !asked[i] && outlivesARender(i);
        }
    }

    /** A value to quote, told apart from a line to count of the same text. */
    private record Quoted(String value) {
    }

    /** Characters an entry holds on to: its text, and its answer when that is text too. */
    private static long weight(Object key, Object answer) {
        long answerChars = answer instanceof String text ? text.length() : 0;
        if (key instanceof String s) {
            return s.length() + answerChars;
        }
        if (key instanceof Quoted q) {
            return q.value().length() + answerChars;
        }
        return ((Cut) key).text().length() + answerChars;
    }
}

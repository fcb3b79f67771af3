package dev.mnemos.injection;

import dev.langchain4j.model.TokenCountEstimator;
import dev.mnemos.injection.block.RememberingTokenCounter;
import dev.mnemos.injection.block.TokenEstimator;

import java.util.function.IntUnaryOperator;

/**
 * Counts the tokens of memory-block text against the budget. The application's LangChain4j
 * {@link TokenCountEstimator} bean when it has one (a real tokenizer, e.g. {@code OpenAiTokenCountEstimator} over
 * jtokkit), otherwise {@link TokenEstimator}'s conservative estimate.
 */
@FunctionalInterface
public interface TokenCounter {

    int count(String text);

    /**
     * This counter without any memory of its own: the tokenizer itself. A caller that remembers counts
     * in its own way (the render memo) counts what it does not know with it, rather than through a
     * shared memory it would only fill with text that changed. This default: the counter itself.
     */
    default TokenCounter unremembered() {
        return this;
    }

    /** The built-in estimate: no tokenizer, errs on the high side for common BPE vocabularies. */
    static TokenCounter estimate() {
        return TokenEstimator::estimate;
    }

    static TokenCounter of(TokenCountEstimator tokenizer) {
        return text -> text == null || text.isEmpty() ? 0 : tokenizer.estimateTokenCountInText(text);
    }

    /**
     * {@code counter} with the counts and cuts of up to {@code maxChars} characters of text
     * remembered (least recently used text forgotten first); {@code counter} itself when
     * {@code maxChars} is 0.
     */
    static TokenCounter remembering(TokenCounter counter, long maxChars) {
        return maxChars <= 0 ? counter : new RememberingTokenCounter(counter, maxChars);
    }

    /**
     * Characters per token that text of common BPE vocabularies stays under: a cut to {@code n} tokens
     * is looked for in the first (or last) {@code WINDOW_CHARS_PER_TOKEN × (n + 1)} characters of a
     * longer text when those already count more than {@code n}, so what a cut costs does not grow with
     * the text (a rolling summary runs to thousands of characters; the block shows a few hundred).
     */
    int WINDOW_CHARS_PER_TOKEN = 8;

    /** Whether {@code text} counts more than {@code maxTokens}; a long text is judged by its start when that already does. */
    default boolean exceeds(String text, int maxTokens) {
        return window(text, maxTokens, false) != null || count(text) > maxTokens;
    }

    /** {@link #exceeds} judged by the end of a long text, where {@link #suffix} looks. */
    default boolean exceedsAtEnd(String text, int maxTokens) {
        return window(text, maxTokens, true) != null || count(text) > maxTokens;
    }

    /** The longest prefix of {@code text} that counts at most {@code maxTokens}. */
    default String prefix(String text, int maxTokens) {
        String window = window(text, maxTokens, false);
        String within = window != null ? window : text;
        int points = within.codePointCount(0, within.length());
        int length = longest(n -> count(within.substring(0, within.offsetByCodePoints(0, n))), points, maxTokens,
                count(within));
        return within.substring(0, within.offsetByCodePoints(0, length));
    }

    /** The longest suffix of {@code text} that counts at most {@code maxTokens}. */
    default String suffix(String text, int maxTokens) {
        String window = window(text, maxTokens, true);
        String within = window != null ? window : text;
        int points = within.codePointCount(0, within.length());
        int length = longest(n -> count(within.substring(within.offsetByCodePoints(0, points - n))), points, maxTokens,
                count(within));
        return within.substring(within.offsetByCodePoints(0, points - length));
    }

    /**
     * The first ({@code end} false) or last {@link #WINDOW_CHARS_PER_TOKEN} × (maxTokens + 1) characters of
     * {@code text}, never splitting a surrogate pair, when the text is longer and they count more than
     * {@code maxTokens}: the longest piece within {@code maxTokens} then lies inside them. Null otherwise.
     */
    private String window(String text, int maxTokens, boolean end) {
        long chars = (long) WINDOW_CHARS_PER_TOKEN * (maxTokens + 1L);
        if (text.length() <= chars) {
            return null;
        }
        int n = (int) chars;
        String window;
        if (end) {
            int from = text.length() - n;
            window = text.substring(Character.isLowSurrogate(text.charAt(from)) ? from + 1 : from);
        } else {
            window = text.substring(0, Character.isHighSurrogate(text.charAt(n - 1)) ? n - 1 : n);
        }
        return count(window) > maxTokens ? window : null;
    }

    /**
     * The largest length in 0..points whose piece counts at most {@code maxTokens}, the count growing
     * with the length. A search over the lengths, as a bisection would do, except that its first
     * probes are where the tokens seen so far put the answer: a tokenizer call costs about as much
     * as the text it counts, and with evenly spread tokens two or three probes land within a token
     * of the answer, where the bisection finishes.
     */
    private static int longest(IntUnaryOperator countOf, int points, int maxTokens, int total) {
        if (total <= maxTokens) {
            return points;
        }
        int lo = 0; // known to fit
        int hi = points - 1; // the longest not known to be too long
        int guess = (int) ((long) points * maxTokens / total);
        for (int probe = 0; lo < hi; probe++) {
            int mid = probe < 4 ? Math.max(lo + 1, Math.min(hi, guess)) : (lo + hi + 1) >>> 1;
            int tokens = countOf.applyAsInt(mid);
            if (tokens <= maxTokens) {
                lo = mid;
                guess = mid + Math.max(1, (int) ((long) mid * (maxTokens - tokens + 1) / Math.max(1, tokens)));
            } else {
                hi = mid - 1;
                guess = (int) ((long) mid * maxTokens / tokens);
            }
        }
        return lo;
    }
}

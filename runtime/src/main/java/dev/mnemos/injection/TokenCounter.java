package dev.mnemos.injection;

import dev.langchain4j.model.TokenCountEstimator;

/**
 * Counts the tokens of memory-block text against the budget. The application's LangChain4j
 * {@link TokenCountEstimator} bean when it has one (a real tokenizer, e.g. {@code OpenAiTokenCountEstimator} over
 * jtokkit), otherwise {@link TokenEstimator}'s conservative estimate.
 */
@FunctionalInterface
public interface TokenCounter {

    int count(String text);

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

    /** The longest prefix of {@code text} that counts at most {@code maxTokens}. */
    default String prefix(String text, int maxTokens) {
        int points = text.codePointCount(0, text.length());
        int length = longest(n -> count(text.substring(0, text.offsetByCodePoints(0, n))), points, maxTokens,
                count(text));
        return text.substring(0, text.offsetByCodePoints(0, length));
    }

    /** The longest suffix of {@code text} that counts at most {@code maxTokens}. */
    default String suffix(String text, int maxTokens) {
        int points = text.codePointCount(0, text.length());
        int length = longest(n -> count(text.substring(text.offsetByCodePoints(0, points - n))), points, maxTokens,
                count(text));
        return text.substring(text.offsetByCodePoints(0, points - length));
    }

    /**
     * The largest length in 0..points whose piece counts at most {@code maxTokens}, the count growing
     * with the length. A search over the lengths, as a bisection would do, except that its first
     * probes are where the tokens seen so far put the answer: a tokenizer call costs about as much
     * as the text it counts, and with evenly spread tokens two or three probes land within a token
     * of the answer, where the bisection finishes.
     */
    private static int longest(java.util.function.IntUnaryOperator countOf, int points, int maxTokens, int total) {
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

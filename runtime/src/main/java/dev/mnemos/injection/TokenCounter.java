package dev.mnemos.injection;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
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
     * {@code counter} with the counts of up to {@code maxChars} characters of text remembered
     * (least recently used text forgotten first); {@code counter} itself when {@code maxChars} is 0.
     */
    static TokenCounter remembering(TokenCounter counter, long maxChars) {
        if (maxChars <= 0) {
            return counter;
        }
        // eviction runs on the counting thread: it is cheap, and needs no pool
        Cache<String, Integer> counts = Caffeine.newBuilder().maximumWeight(maxChars).executor(Runnable::run)
                .weigher((String text, Integer count) -> text.length()).build();
        return text -> text == null || text.isEmpty() ? 0 : counts.get(text, counter::count);
    }

    /** The longest prefix of {@code text} that counts at most {@code maxTokens} (binary search on code points). */
    default String prefix(String text, int maxTokens) {
        int lo = 0;
        int hi = text.codePointCount(0, text.length());
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (count(text.substring(0, text.offsetByCodePoints(0, mid))) <= maxTokens) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return text.substring(0, text.offsetByCodePoints(0, lo));
    }

    /** The longest suffix of {@code text} that counts at most {@code maxTokens}. */
    default String suffix(String text, int maxTokens) {
        int points = text.codePointCount(0, text.length());
        int lo = 0;
        int hi = points;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (count(text.substring(text.offsetByCodePoints(0, points - mid))) <= maxTokens) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return text.substring(text.offsetByCodePoints(0, points - lo));
    }
}

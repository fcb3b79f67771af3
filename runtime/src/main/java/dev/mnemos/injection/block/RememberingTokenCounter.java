package dev.mnemos.injection.block;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemos.injection.TokenCounter;

/**
 * A {@link TokenCounter} that remembers the counts and the cuts it made, up to a number of
 * characters (least recently used forgotten first). Most of a memory block is the same from one
 * step to the next, and a tokenizer costs far more than a lookup; a remembered cut also spares the
 * search its probes, each a new substring to hash even when its count is remembered.
 */
public final class RememberingTokenCounter implements TokenCounter {

    /** A cut of {@code text} to {@code maxTokens}: its start ({@code suffix} false) or its end. */
    private record Cut(String text, int maxTokens, boolean suffix) {
    }

    private final TokenCounter counter;
    /** String → its count, {@link Cut} → the cut text; weighed by the characters held. */
    private final Cache<Object, Object> memory;

    public RememberingTokenCounter(TokenCounter counter, long maxChars) {
        this.counter = counter;
        // eviction runs on the counting thread: it is cheap, and needs no pool
        this.memory = Caffeine.newBuilder().maximumWeight(maxChars).executor(Runnable::run)
                .weigher((Object key, Object value) -> key instanceof Cut cut
                        ? cut.text().length() + ((String) value).length()
                        : ((String) key).length())
                .build();
    }

    @Override
    public TokenCounter unremembered() {
        return counter;
    }

    @Override
    public int count(String text) {
        return text == null || text.isEmpty() ? 0 : (Integer) memory.get(text, t -> counter.count((String) t));
    }

    @Override
    public String prefix(String text, int maxTokens) {
        Cut cut = new Cut(text, maxTokens, false);
        // not computed inside the cache's own get: the search counts through the same cache
        String known = (String) memory.getIfPresent(cut);
        return known != null ? known : remember(cut, TokenCounter.super.prefix(text, maxTokens));
    }

    @Override
    public String suffix(String text, int maxTokens) {
        Cut cut = new Cut(text, maxTokens, true);
        String known = (String) memory.getIfPresent(cut);
        return known != null ? known : remember(cut, TokenCounter.super.suffix(text, maxTokens));
    }

    private String remember(Cut cut, String result) {
        memory.put(cut, result);
        return result;
    }
}

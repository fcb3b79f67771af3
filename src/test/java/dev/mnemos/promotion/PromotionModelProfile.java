package dev.mnemos.promotion;

import dev.mnemos.llm.ModelConfigured;

import java.util.Set;

/** A configured model plus a seedable chat store, for extraction at task end. */
public class PromotionModelProfile extends ModelConfigured {

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(RecordingChatMemoryStore.class);
    }
}

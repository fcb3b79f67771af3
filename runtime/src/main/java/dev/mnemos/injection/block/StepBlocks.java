package dev.mnemos.injection.block;

import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.TurnOverride;
import dev.mnemos.session.SessionState;

import java.util.List;

/**
 * Renders the memory block of a session's step. Which way is chosen once, at start ({@link #of}): each
 * block anew ({@link PlainStepBlocks}), or from what the session's last render counted, quoted and cut
 * ({@link MemoStepBlocks}). Both give a step the same block for the same state, facts, overrides and message.
 */
public interface StepBlocks {

    MemoryBlock render(String sessionId, SessionState state, List<ProfileLine> facts, List<TurnOverride> overrides,
            String message);

    /**
     * Renders with memos of up to {@code memoChars} characters ({@link InjectionConfig#tokenCountCacheChars()}),
     * plain renders when 0.
     */
    static StepBlocks of(MemoryBlockRenderer renderer, long memoChars) {
        return memoChars <= 0 ? new PlainStepBlocks(renderer) : new MemoStepBlocks(renderer, memoChars);
    }
}

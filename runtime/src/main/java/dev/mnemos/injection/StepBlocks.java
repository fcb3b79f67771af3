package dev.mnemos.injection;

import dev.mnemos.session.SessionState;

import java.util.List;

/**
 * Renders the memory block of a session's step. Which way is chosen once, at start ({@link #of}): each
 * block anew ({@link PlainStepBlocks}), or from what the session's last render counted, quoted and cut
 * ({@link MemoStepBlocks}). Either way a step gets the same block for the same state, facts, overrides and
 * message.
 */
interface StepBlocks {

    MemoryBlock render(String sessionId, SessionState state, List<ProfileLine> facts, List<TurnOverride> overrides,
            String message);

    /**
     * Renders with memos of up to {@code memoChars} characters ({@link InjectionConfig#tokenCountCacheChars()});
     * plain renders when that is 0.
     */
    static StepBlocks of(MemoryBlockRenderer renderer, long memoChars) {
        return memoChars > 0 ? new MemoStepBlocks(renderer, memoChars) : new PlainStepBlocks(renderer);
    }
}

package dev.mnemos.injection.block;

import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.TurnOverride;
import dev.mnemos.session.SessionState;

import java.util.List;

/**
 * Renders the memory block of a session's step. Which way is chosen once, at start ({@link #of}): each
 * block anew ({@link PlainStepBlocks}), from what the session's last render counted, quoted and cut
 * ({@link MemoStepBlocks}), or that and the next step's block rendered ahead ({@link AheadStepBlocks}).
 * Every way gives a step the same block for the same state, facts, overrides and message.
 */
public interface StepBlocks {

    /** Whether a step's block was found rendered ahead; {@code OFF} when blocks are not rendered ahead. */
    enum Ahead {
        OFF,
        FOUND,
        NOT_FOUND
    }

    /**
     * A step's block, its SHA-256 ({@link MemoryBlock#sha256()}, hashed where it was rendered: a block rendered
     * ahead comes hashed) and whether it was found rendered ahead.
     */
    record Block(MemoryBlock block, String sha256, Ahead ahead) {

        /** A block just rendered, hashed on this thread. */
        Block(MemoryBlock block, Ahead ahead) {
            this(block, block.sha256(), ahead);
        }
    }

    Block render(String sessionId, SessionState state, List<ProfileLine> facts, List<TurnOverride> overrides,
            String message);

    /**
     * The read of a step of the session is on its way to the store: work for that step's block that can overlap
     * the round trip runs here, on the step's thread. This default does nothing.
     */
    default void whileReading(String sessionId) {
    }

    /**
     * A step of the session wrote: {@code next} is the state the session's next step should read (null when
     * that cannot be told without a read), {@code facts} and {@code message} the step's own. This default
     * does nothing.
     */
    default void written(String sessionId, SessionState next, List<ProfileLine> facts, String message) {
    }

    /**
     * Renders with memos of up to {@code memoChars} characters ({@link InjectionConfig#tokenCountCacheChars()},
     * plain renders when 0), and with {@code renderAhead} ({@link InjectionConfig#renderAhead()}) renders ahead.
     */
    static StepBlocks of(MemoryBlockRenderer renderer, long memoChars, boolean renderAhead) {
        if (memoChars <= 0) {
            return new PlainStepBlocks(renderer);
        }
        MemoStepBlocks memo = new MemoStepBlocks(renderer, memoChars);
        return renderAhead ? new AheadStepBlocks(memo) : memo;
    }
}

package dev.mnemos.injection;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemos.session.SessionState;

import java.util.List;

/**
 * Renders a step's block from what the session's last render counted, quoted and cut ({@link RenderMemo}),
 * kept per session up to a number of characters (least recently stepped sessions forgotten first). Most
 * of a block is the same from one step to the next, so the tokenizer reads only what changed. The memo
 * changes nothing in the block.
 */
final class MemoStepBlocks implements StepBlocks {

    private final MemoryBlockRenderer renderer;
    /** Session id → what its last render left. */
    private final Cache<String, RenderMemo> memos;

    /** @param maxChars characters the memos may hold in all */
    MemoStepBlocks(MemoryBlockRenderer renderer, long maxChars) {
        this.renderer = renderer;
        this.memos = Caffeine.newBuilder().maximumWeight(maxChars).executor(Runnable::run)
                .weigher((String id, RenderMemo memo) -> (int) Math.min(Integer.MAX_VALUE, id.length() + memo.chars()))
                .build();
    }

    @Override
    public MemoryBlock render(String sessionId, SessionState state, List<ProfileLine> facts, List<TurnOverride> overrides,
            String message) {
        RenderMemo before = memos.getIfPresent(sessionId);
        MemoryBlockRenderer.Rendered rendered = renderer.render(state, facts, overrides, message,
                before == null ? RenderMemo.EMPTY : before);
        memos.put(sessionId, rendered.memo());
        return rendered.block();
    }
}

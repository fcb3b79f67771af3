package dev.mnemos.injection.block;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.TurnOverride;
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
    private final Cache<String, RenderMemo> last;

    /** @param maxChars characters the memos may hold in all */
    MemoStepBlocks(MemoryBlockRenderer renderer, long maxChars) {
        this.renderer = renderer;
        this.last = Caffeine.newBuilder().maximumWeight(maxChars).executor(Runnable::run)
                .weigher((String id, RenderMemo memo) -> (int) Math.min(Integer.MAX_VALUE, id.length() + memo.chars()))
                .build();
    }

    @Override
    public MemoryBlock render(String sessionId, SessionState state, List<ProfileLine> facts, List<TurnOverride> overrides,
            String message) {
        RenderMemo before = last.getIfPresent(sessionId);
        MemoryBlockRenderer.Rendered rendered = renderer.render(state, facts, overrides, message,
                before == null ? RenderMemo.EMPTY : before);
        last.put(sessionId, rendered.memo());
        return rendered.block();
    }
}

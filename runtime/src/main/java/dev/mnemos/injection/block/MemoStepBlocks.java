package dev.mnemos.injection.block;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
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

    /** What a session's last render left, and the version it rendered. */
    private record Last(long version, RenderMemo memo) {
    }

    private final MemoryBlockRenderer renderer;
    private final Cache<String, Last> last;

    /** @param maxChars characters the memos may hold in all */
    MemoStepBlocks(MemoryBlockRenderer renderer, long maxChars) {
        this.renderer = renderer;
        this.last = Caffeine.newBuilder().maximumWeight(maxChars).executor(Runnable::run)
                .weigher((String id, Last l) -> (int) Math.min(Integer.MAX_VALUE, id.length() + l.memo().chars()))
                .build();
    }

    @Override
    public Block render(String sessionId, SessionState state, List<ProfileLine> facts, List<TurnOverride> overrides,
            String message) {
        Last before = last.getIfPresent(sessionId);
        MemoryBlockRenderer.Rendered rendered = renderer.render(state, facts, overrides, message,
                before == null ? RenderMemo.EMPTY : before.memo());
        last.put(sessionId, new Last(state.version(), rendered.memo()));
        return new Block(rendered.block(), Ahead.OFF);
    }

    /** The version of the session's last render; -1 when none is remembered. */
    long renderedVersion(String sessionId) {
        Last before = last.getIfPresent(sessionId);
        return before == null ? -1 : before.version();
    }
}

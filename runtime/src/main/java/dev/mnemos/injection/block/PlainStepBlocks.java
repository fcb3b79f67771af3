package dev.mnemos.injection.block;

import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.TurnOverride;
import dev.mnemos.session.SessionState;

import java.util.List;

/** Renders every step's block anew, remembering nothing of the session's last one. */
final class PlainStepBlocks implements StepBlocks {

    private final MemoryBlockRenderer renderer;

    PlainStepBlocks(MemoryBlockRenderer renderer) {
        this.renderer = renderer;
    }

    @Override
    public MemoryBlock render(String sessionId, SessionState state, List<ProfileLine> facts, List<TurnOverride> overrides,
            String message) {
        return renderer.render(state, facts, overrides, message);
    }
}

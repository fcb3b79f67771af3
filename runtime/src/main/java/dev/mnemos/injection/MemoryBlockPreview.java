package dev.mnemos.injection;

import dev.mnemos.injection.block.MemoryBlockRenderer;
import dev.mnemos.injection.block.TurnOverrideDetector;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * The memory block a step of a session would be given now, rendered without a step: for tools that show
 * it (an MCP tool, an inspector). It reads the owner's profile the way a step does ({@link StepProfiles})
 * and renders with the same settings; nothing is written, folded or counted as a step.
 */
@ApplicationScoped
public class MemoryBlockPreview {

    private final StepProfiles profiles;
    private final MemoryBlockRenderer renderer;

    public MemoryBlockPreview(StepProfiles profiles, InjectionConfig config, TokenCounter tokens) {
        this.profiles = profiles;
        this.renderer = MemoryBlockRenderer.from(config, tokens);
    }

    /** The block for {@code state} and this turn's {@code message} (may be null). */
    public MemoryBlock render(SessionState state, String message) {
        ProfileSnapshot profile = profiles.load(state.userId());
        List<TurnOverride> overrides = TurnOverrideDetector.detect(message, profile.facts());
        return renderer.render(state, profile.facts(), overrides, message);
    }
}

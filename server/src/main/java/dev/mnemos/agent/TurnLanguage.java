package dev.mnemos.agent;

import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.StepProfiles;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * The language of the agent's own sentences for a turn: what the session says (the newest
 * statement wins), else the user's profile language, else the script of the message.
 */
@ApplicationScoped
public class TurnLanguage {

    private static final String LANGUAGE_SLOT = "output.language";

    private final StepProfiles profiles;

    public TurnLanguage(StepProfiles profiles) {
        this.profiles = profiles;
    }

    public Language of(SessionState state, String message) {
        List<String> profile = profiles.load(state.userId()).facts().stream()
                .filter(f -> LANGUAGE_SLOT.equals(f.slot())).map(ProfileLine::text).toList();
        return Language.forTurn(state, profile, message);
    }
}

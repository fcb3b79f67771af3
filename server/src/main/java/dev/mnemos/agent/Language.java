package dev.mnemos.agent;

import dev.mnemos.injection.TurnOverride;
import dev.mnemos.profile.SlotRules;
import dev.mnemos.session.Constraint;
import dev.mnemos.session.Observation;
import dev.mnemos.session.SessionState;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** The language the agent answers in: the user's standing choice when there is one, else the message's script. */
public enum Language {
    EN,
    ZH;

    private static final String SLOT = "output.language";

    /** ZH when the text holds any CJK ideograph. */
    public static Language of(String text) {
        return text != null && text.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN)
                ? ZH
                : EN;
    }

    /**
     * This message when it asks for a reply language ("this time answer in English"), else a constraint
     * or observation of the session naming Chinese or English (the newest wins; an override of the
     * profile counts by the language it asks for, not the profile's it quotes), else such a profile
     * fact, else the script of this message.
     */
    public static Language forTurn(SessionState state, List<String> profile, String message) {
        Stream<String> asked = message != null && SlotRules.detect(message).map(s -> s.name().equals(SLOT)).orElse(false)
                ? Stream.of(message)
                : Stream.empty();
        Stream<String> stated = Stream.of(profile.stream(), state.constraints().stream().map(Constraint::text),
                state.observations().stream().map(Language::said), asked).flatMap(s -> s);
        return stated.map(Language::named).flatMap(Optional::stream).reduce((a, b) -> b).orElse(of(message));
    }

    /** What an observation says; for a recorded override, only the value it asks for. */
    private static String said(Observation o) {
        return o.id() != null && o.id().startsWith(TurnOverride.OBSERVATION_PREFIX)
                ? TurnOverride.value(o).orElse("")
                : o.text();
    }

    private static Optional<Language> named(String text) {
        String t = text.toLowerCase();
        if (t.contains("中文") || t.contains("chinese")) {
            return Optional.of(ZH);
        }
        return t.contains("英文") || t.contains("english") ? Optional.of(EN) : Optional.empty();
    }
}

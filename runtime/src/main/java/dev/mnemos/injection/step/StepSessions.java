package dev.mnemos.injection.step;

import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.StepProfiles;
import dev.mnemos.session.Sent;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;

/**
 * Reads the session of a step, with the plans its block and its fold need. Which way is chosen once, at
 * start ({@link #of}): a plain read ({@link SummaryFolder#loadForFold}), or one answered with the state the
 * application's last step on the session wrote while the session is still at that version
 * ({@link KnownStepSessions}, with {@link InjectionConfig#renderAhead()}), which also reads the key the owner's
 * profile source names ({@link StepProfiles#knownBy}) in the same round trip.
 */
interface StepSessions {

    /** A session as a step read it, with what it read along for the owner's profile (null: nothing). */
    record Read(SessionState state, StepProfiles.Along along) {
    }

    /** @throws dev.mnemos.session.SessionNotFoundException when there is no live session of that id */
    default Read read(String sessionId) {
        try (Sent<Read> sent = send(sessionId)) {
            return sent.reply();
        }
    }

    /**
     * The read sent now, answered by {@link Sent#reply} ({@link #read}'s failures): what the caller does in between
     * overlaps the round trip.
     */
    Sent<Read> send(String sessionId);

    /** A step of the session wrote {@code written} (null: the state it wrote cannot be told without a read). */
    default void written(String sessionId, SessionState written) {
    }

    static StepSessions of(SessionStore store, int plansShown, boolean known, long maxChars, StepProfiles profiles) {
        return known ? new KnownStepSessions(store, plansShown, maxChars, profiles)
                : sessionId -> () -> new Read(SummaryFolder.loadForFold(store, sessionId, plansShown), null);
    }
}

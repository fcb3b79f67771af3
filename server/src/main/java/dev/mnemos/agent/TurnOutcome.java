package dev.mnemos.agent;

import dev.mnemos.session.SessionState;

/**
 * What a turn produced.
 *
 * @param reply the text for the user
 * @param state the session after the turn (unchanged when the turn wrote nothing)
 * @param question the question the agent asked, or null
 * @param promotion the promotion report when the turn ended the task, else null
 */
public record TurnOutcome(String reply, SessionState state, String question, Object promotion) {

    public static TurnOutcome say(String reply, SessionState state) {
        return new TurnOutcome(reply, state, null, null);
    }
}

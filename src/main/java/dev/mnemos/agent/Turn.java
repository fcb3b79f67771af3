package dev.mnemos.agent;

import dev.mnemos.session.SessionState;

/**
 * One user message on its way through the agent.
 *
 * @param state    the session as read before this turn (read-before-write)
 * @param memory   the memory block rendered from {@code state} for the prompts of this turn
 * @param language the language the agent answers in
 */
public record Turn(String userId, SessionState state, String message, Routing routing, String memory,
                   Language language) {

    public Turn withState(SessionState newer, String newMemory) {
        return new Turn(userId, newer, message, routing, newMemory, language);
    }
}

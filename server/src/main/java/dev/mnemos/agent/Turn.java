package dev.mnemos.agent;

import dev.mnemos.session.SessionState;

/**
 * One user message on its way through the agent.
 *
 * @param state the session as read after routing, before the handler's steps
 * @param language the language the agent answers in at the start of the turn
 */
public record Turn(String userId, SessionState state, String message, Routing routing, Language language) {
}

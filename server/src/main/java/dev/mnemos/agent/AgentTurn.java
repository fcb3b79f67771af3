package dev.mnemos.agent;

import dev.mnemos.session.SessionState;

/**
 * The agent's answer to one message.
 *
 * @param state the session after the turn
 * @param question the question asked, or null
 * @param promotion the promotion report when the turn ended the task, else null
 */
public record AgentTurn(String reply, SessionState state, Intent intent, String question, Object promotion) {
}

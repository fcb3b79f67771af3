package dev.mnemos.agent;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the task-breakdown agent. */
@ConfigMapping(prefix = "mnemos.agent")
public interface AgentConfig {

    /** How many recent messages (user and agent) the intent router sees besides the memory block. */
    @WithDefault("6")
    int historyMessages();

    /** Longest message the agent accepts, in characters. */
    @WithDefault("4000")
    int maxMessageChars();

    /** A plan scoring at least this (0 to 10) is not rewritten automatically. */
    @WithDefault("8")
    double targetScore();

    /** How many automatic rewrites follow the first plan while its score is below the target. */
    @WithDefault("1")
    int autoRevisions();

    /** Longest agent reply kept in the conversation history, in characters. */
    @WithDefault("600")
    int historyReplyChars();

    /** The actor name written into the session's replay log for the agent's own writes. */
    @WithDefault("agent")
    String actor();
}

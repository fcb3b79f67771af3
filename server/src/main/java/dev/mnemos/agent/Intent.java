package dev.mnemos.agent;

/**
 * What a user message asks of the agent. The first four classify the conversation; the last three
 * are commands about a plan that already exists.
 */
public enum Intent {
    /** The goal or the constraints are not clear enough to plan: ask the one most useful question. */
    INSUFFICIENT_INFO,
    /** Enough is known, or the user asks for the plan now: decompose the goal into a plan. */
    READY_TO_DECOMPOSE,
    /** The user expresses feelings rather than a request: acknowledge, do not plan. */
    VENTING,
    /** Nothing the agent can act on. */
    UNRECOGNIZED,
    /** Rewrite the current plan, taking its evaluation and the user's remarks into account. */
    REVISE_PLAN,
    /** Go back to an earlier plan version: a rollback of the session. */
    ROLLBACK_PLAN,
    /** The task is finished: end the session and promote what is stable. */
    END_TASK
}

package dev.mnemos.agent;

import dev.mnemos.session.StepPointer;

/** The stages of a task; the session's step pointer always names the stage the task is in. */
public enum TaskStep {
    COLLECT_GOAL("collect-goal"),
    COLLECT_CONSTRAINTS("collect-constraints"),
    PLAN_DRAFTED("plan-drafted"),
    PLAN_EVALUATED("plan-evaluated"),
    ENDED("ended");

    private final String label;

    TaskStep(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public StepPointer pointer() {
        return new StepPointer(ordinal(), label);
    }
}

package dev.mnemos.server.mcp;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.mnemos.session.Constraint;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.StepPointer;

import java.util.List;
import java.util.Map;

/**
 * The typed arguments of the task tools, mirroring the REST bodies ({@code SessionPatch} and its parts) with the
 * descriptions a model reads in {@code tools/list}. A component marked {@code required} must be present (Jackson
 * refuses the call otherwise, and the published schema lists it); lengths, ranges and blank text are left to the
 * runtime's validator ({@code PatchValidator}), which names the field the same way.
 */
final class PatchArgs {

    /** For constraints: they bind the task; the profile only ever learns from observations. */
    static final String CONSTRAINT_SCOPE = "TASK = holds for this task only (\"this time\", \"today\", a budget for this "
            + "trip). STABLE = a standing rule of the user (\"I never fly at night\"). UNKNOWN = not clear. Constraints "
            + "bind this task and are never copied to the profile themselves; to carry a standing one over, also "
            + "add_observation it.";
    /** For observations: the promotion gate at end_task. */
    static final String OBSERVATION_SCOPE = "TASK = holds for this task only: never promoted to the profile. STABLE = a "
            + "standing preference or fact: promoted at end_task when stated explicitly, else kept pending. UNKNOWN "
            + "(default) = let the words decide (\"from now on\", \"always\" → standing; \"this time\", \"today\" → task-only).";
    static final String EXPLICIT = "true only when the user said it in so many words (\"from now on answer in Chinese\"); "
            + "false (default) when you inferred it. Explicit standing statements are promoted at task end; inferred "
            + "ones wait until seen in several tasks or confirmed by the user.";
    static final String SLOT = "Optional profile slot the observation fills, e.g. output.language, output.format, "
            + "home.city; a new value on a slot replaces the old one in the profile.";

    private PatchArgs() {
    }

    /** A constraint the task must respect. */
    record ConstraintArg(
            @JsonProperty(required = true) @JsonPropertyDescription("The constraint in the user's words, e.g. \"budget 5000 this time\".") String text,
            @JsonProperty(required = true) @JsonPropertyDescription(CONSTRAINT_SCOPE) Scope scope,
            @JsonPropertyDescription("Give an existing constraint's id to replace it; omit for a new one.") String id,
            @JsonPropertyDescription("Where it came from: user, agent, import …") String source) {

        Constraint constraint() {
            return new Constraint(id, text, scope, source);
        }

        static List<Constraint> all(List<ConstraintArg> args) {
            return args == null ? null : args.stream().map(ConstraintArg::constraint).toList();
        }
    }

    /** Something learned about the user: a candidate for the profile. */
    record ObservationArg(
            @JsonProperty(required = true) @JsonPropertyDescription("The preference or fact, in the user's words where possible.") String text,
            @JsonPropertyDescription("PREFERENCE (default), FACT or INSTRUCTION.") Observation.Kind kind,
            @JsonPropertyDescription(OBSERVATION_SCOPE) Scope scope,
            @JsonPropertyDescription(SLOT) String slot,
            @JsonPropertyDescription(EXPLICIT) Boolean explicit,
            @JsonPropertyDescription("The user's words, or why you inferred it.") String evidence,
            @JsonPropertyDescription("Give an existing observation's id to replace it; omit for a new one.") String id) {

        Observation observation() {
            return new Observation(id, text, kind, scope, slot, Boolean.TRUE.equals(explicit), evidence);
        }
    }

    /** Where the task stands. */
    record StepPointerArg(
            @JsonProperty(required = true) @JsonPropertyDescription("Step index, 0 or more.") Integer index,
            @JsonProperty(required = true) @JsonPropertyDescription("Step name, e.g. collect, plan, evaluate.") String name) {
    }

    /** Appends the next plan version (versions are numbered 1, 2, …). */
    record PlanArg(
            @JsonProperty(required = true) @JsonPropertyDescription("The plan text.") String content,
            @JsonPropertyDescription("Optional score 0–10.") Double score,
            @JsonPropertyDescription("Optional feedback on it.") String feedback) {
    }

    /** Scores an existing plan version; the evaluation is kept apart from the plan text. */
    record EvaluationArg(
            @JsonProperty(required = true) @JsonPropertyDescription("The plan version.") Integer version,
            @JsonPropertyDescription("Score 0–10.") Double score,
            @JsonPropertyDescription("What to improve.") String feedback) {
    }

    /**
     * The change one step makes; every field optional, at least one required. Lists add items (an item with an
     * existing id replaces it); remove* take ids or keys.
     */
    record PatchArg(
            @JsonPropertyDescription("Replaces the goal.") String goal,
            @JsonPropertyDescription("Replaces the background context.") String context,
            @JsonPropertyDescription("Replaces the rolling summary of earlier steps.") String summary,
            @JsonPropertyDescription("Constraints to add.") List<ConstraintArg> addConstraints,
            @JsonPropertyDescription("Ids of constraints to remove.") List<String> removeConstraints,
            @JsonPropertyDescription("Facts collected for the task, key → value (e.g. {\"month\": \"April\"}).") Map<String, String> putCollected,
            @JsonPropertyDescription("Keys of collected facts to remove.") List<String> removeCollected,
            @JsonPropertyDescription("Where the task stands.") StepPointerArg stepPointer,
            @JsonPropertyDescription("Appends the next plan version (versions are numbered 1, 2, …).") PlanArg addPlan,
            @JsonPropertyDescription("Scores an existing plan version; the evaluation is kept apart from the plan text.") EvaluationArg evaluatePlan,
            @JsonPropertyDescription("Questions still to ask the user.") List<String> addOpenQuestions,
            @JsonPropertyDescription("Open questions (their exact text) now answered.") List<String> answerOpenQuestions,
            @JsonPropertyDescription("Observations about the user (see add_observation).") List<ObservationArg> addObservations) {

        SessionPatch patch() {
            return new SessionPatch(goal, context, summary, ConstraintArg.all(addConstraints), removeConstraints,
                    putCollected, removeCollected,
                    stepPointer == null ? null : new StepPointer(stepPointer.index(), stepPointer.name()),
                    addPlan == null ? null : new SessionPatch.NewPlan(addPlan.content(), addPlan.score(), addPlan.feedback()),
                    evaluatePlan == null ? null
                            : new SessionPatch.PlanEvaluation(evaluatePlan.version(), evaluatePlan.score(),
                                    evaluatePlan.feedback()),
                    addOpenQuestions, answerOpenQuestions,
                    addObservations == null ? null : addObservations.stream().map(ObservationArg::observation).toList());
        }
    }
}

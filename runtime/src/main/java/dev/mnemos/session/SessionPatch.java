package dev.mnemos.session;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One step's change to a session. Every field is optional; a null field leaves that part of the
 * state alone. Lists add or remove items; adding an item whose id (or question text) exists
 * replaces it and moves it to the end. {@code addPlan} appends the next plan version;
 * {@code evaluatePlan} attaches a score and feedback to an existing one.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record SessionPatch(
        String goal,
        String context,
        String summary,
        List<Constraint> addConstraints,
        List<String> removeConstraints,
        Map<String, String> putCollected,
        List<String> removeCollected,
        StepPointer stepPointer,
        NewPlan addPlan,
        PlanEvaluation evaluatePlan,
        List<String> addOpenQuestions,
        List<String> answerOpenQuestions,
        List<Observation> addObservations) {

    /** A new plan version, optionally already scored. */
    public record NewPlan(String content, Double score, String feedback) {
    }

    /** Score and feedback for plan version {@code version}. */
    public record PlanEvaluation(int version, Double score, String feedback) {
    }

    public SessionPatch {
        addConstraints = addConstraints == null ? List.of() : addConstraints;
        removeConstraints = removeConstraints == null ? List.of() : removeConstraints;
        putCollected = putCollected == null ? Map.of() : putCollected;
        removeCollected = removeCollected == null ? List.of() : removeCollected;
        addOpenQuestions = addOpenQuestions == null ? List.of() : addOpenQuestions;
        answerOpenQuestions = answerOpenQuestions == null ? List.of() : answerOpenQuestions;
        addObservations = addObservations == null ? List.of() : addObservations;
    }

    public static Builder builder() {
        return new Builder();
    }

    @JsonIgnore
    public boolean isEmpty() {
        return goal == null && context == null && summary == null && stepPointer == null && addPlan == null
                && evaluatePlan == null && addConstraints.isEmpty() && removeConstraints.isEmpty()
                && putCollected.isEmpty() && removeCollected.isEmpty() && addOpenQuestions.isEmpty()
                && answerOpenQuestions.isEmpty() && addObservations.isEmpty();
    }

    /** The same patch with an id on every constraint and observation that lacked one. */
    public SessionPatch withIds(Supplier<String> ids) {
        List<Constraint> constraints = addConstraints.stream()
                .map(c -> c.id() == null ? new Constraint(ids.get(), c.text(), c.scope(), c.source()) : c).toList();
        List<Observation> observations = addObservations.stream()
                .map(o -> o.id() == null ? new Observation(ids.get(), o.text(), o.kind(), o.scope(), o.slot(),
                        o.explicit(), o.evidence()) : o)
                .toList();
        return new SessionPatch(goal, context, summary, constraints, removeConstraints, putCollected,
                removeCollected, stepPointer, addPlan, evaluatePlan, addOpenQuestions, answerOpenQuestions,
                observations);
    }

    /**
     * The same patch with its new plan's content left out: the replay log stores the content once,
     * as the plan's body, and refers to it by the plan's id.
     */
    SessionPatch withoutPlanContent() {
        if (addPlan == null || addPlan.content() == null) {
            return this;
        }
        return withPlan(new NewPlan(null, addPlan.score(), addPlan.feedback()));
    }

    /** The same patch with {@code plan} as its new plan. */
    SessionPatch withPlan(NewPlan plan) {
        return new SessionPatch(goal, context, summary, addConstraints, removeConstraints, putCollected,
                removeCollected, stepPointer, plan, evaluatePlan, addOpenQuestions, answerOpenQuestions, addObservations);
    }

    /** The same patch without its plan evaluation. */
    SessionPatch withoutEvaluation() {
        return new SessionPatch(goal, context, summary, addConstraints, removeConstraints, putCollected,
                removeCollected, stepPointer, addPlan, null, addOpenQuestions, answerOpenQuestions, addObservations);
    }

    /**
     * The state after this patch, written at {@code version} and time {@code at}. This is the
     * reference semantics: the Redis store applies the same changes server-side, and replaying the
     * event log through this method must reproduce the stored state exactly.
     *
     * @throws InvalidPatchException when {@code evaluatePlan} names a plan version that does not exist
     */
    public SessionState applyTo(SessionState s, long version, Instant at) {
        List<Constraint> constraints = new ArrayList<>(s.constraints());
        constraints.removeIf(c -> removeConstraints.contains(c.id()));
        addConstraints.forEach(a -> replace(constraints, a, c -> c.id().equals(a.id())));
        Map<String, String> collected = new TreeMap<>(s.collected());
        removeCollected.forEach(collected::remove);
        collected.putAll(putCollected);
        List<String> questions = new ArrayList<>(s.openQuestions());
        questions.removeAll(answerOpenQuestions);
        addOpenQuestions.forEach(a -> replace(questions, a, a::equals));
        List<Observation> observations = new ArrayList<>(s.observations());
        addObservations.forEach(a -> replace(observations, a, o -> o.id().equals(a.id())));
        return new SessionState(s.sessionId(), s.userId(), version, s.createdAt(), at, s.status(),
                goal != null ? goal : s.goal(), context != null ? context : s.context(), constraints, questions,
                collected, stepPointer != null ? stepPointer : s.stepPointer(), plans(s.plans(), at),
                observations, summary != null ? summary : s.summary(), s.forkedFrom());
    }

    /** Same as a hash field write: an existing item is dropped and the new one goes to the end. */
    private static <T> void replace(List<T> items, T item, Predicate<T> same) {
        items.removeIf(same);
        items.add(item);
    }

    private List<PlanVersion> plans(List<PlanVersion> current, Instant at) {
        List<PlanVersion> plans = new ArrayList<>(current);
        if (evaluatePlan != null) {
            int index = indexOf(plans, evaluatePlan.version());
            plans.set(index, plans.get(index).evaluated(evaluatePlan.score(), evaluatePlan.feedback()));
        }
        if (addPlan != null) {
            int next = plans.isEmpty() ? 1 : plans.get(plans.size() - 1).version() + 1;
            plans.add(new PlanVersion(next, addPlan.content(), addPlan.score(), addPlan.feedback(), at));
        }
        return plans;
    }

    private static int indexOf(List<PlanVersion> plans, int version) {
        for (int i = 0; i < plans.size(); i++) {
            if (plans.get(i).version() == version) {
                return i;
            }
        }
        throw new InvalidPatchException("patch.evaluatePlan.version",
                "an existing plan version; version " + version + " does not exist");
    }

    /** Builds patches in code (agents, interceptor strategies, tests). */
    public static final class Builder {
        private String goal;
        private String context;
        private String summary;
        private final List<Constraint> addConstraints = new ArrayList<>();
        private final List<String> removeConstraints = new ArrayList<>();
        private final Map<String, String> putCollected = new LinkedHashMap<>();
        private final List<String> removeCollected = new ArrayList<>();
        private StepPointer stepPointer;
        private NewPlan addPlan;
        private PlanEvaluation evaluatePlan;
        private final List<String> addOpenQuestions = new ArrayList<>();
        private final List<String> answerOpenQuestions = new ArrayList<>();
        private final List<Observation> addObservations = new ArrayList<>();

        public Builder goal(String value) {
            goal = value;
            return this;
        }

        public Builder context(String value) {
            context = value;
            return this;
        }

        public Builder summary(String value) {
            summary = value;
            return this;
        }

        public Builder addConstraint(Constraint value) {
            addConstraints.add(value);
            return this;
        }

        public Builder removeConstraint(String id) {
            removeConstraints.add(id);
            return this;
        }

        public Builder putCollected(String key, String value) {
            putCollected.put(key, value);
            return this;
        }

        public Builder removeCollected(String key) {
            removeCollected.add(key);
            return this;
        }

        public Builder stepPointer(int index, String name) {
            stepPointer = new StepPointer(index, name);
            return this;
        }

        public Builder addPlan(String content, Double score, String feedback) {
            addPlan = new NewPlan(content, score, feedback);
            return this;
        }

        public Builder evaluatePlan(int version, Double score, String feedback) {
            evaluatePlan = new PlanEvaluation(version, score, feedback);
            return this;
        }

        public Builder addOpenQuestion(String value) {
            addOpenQuestions.add(value);
            return this;
        }

        public Builder answerOpenQuestion(String value) {
            answerOpenQuestions.add(value);
            return this;
        }

        public Builder addObservation(Observation value) {
            addObservations.add(value);
            return this;
        }

        public SessionPatch build() {
            return new SessionPatch(goal, context, summary, addConstraints, removeConstraints, putCollected,
                    removeCollected, stepPointer, addPlan, evaluatePlan, addOpenQuestions, answerOpenQuestions,
                    addObservations);
        }
    }
}

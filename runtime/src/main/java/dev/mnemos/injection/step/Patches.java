package dev.mnemos.injection.step;

import dev.mnemos.session.Observation;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.StepPointer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Combines the writer's patch with what the framework adds to every step. */
final class Patches {

    private Patches() {
    }

    /**
     * {@code main} with {@code extra}'s observations, collected values and summary added (main's own
     * values win), and the step pointer advanced from {@code basis} to {@code step} when main set none.
     */
    static SessionPatch merge(SessionPatch main, SessionPatch extra, SessionState basis, String step) {
        List<Observation> observations = new ArrayList<>(extra.addObservations());
        observations.addAll(main.addObservations());
        Map<String, String> collected = new LinkedHashMap<>(extra.putCollected());
        collected.putAll(main.putCollected());
        StepPointer pointer = main.stepPointer() != null ? main.stepPointer()
                : new StepPointer(basis.stepPointer() == null ? 1 : basis.stepPointer().index() + 1, step);
        return new SessionPatch(main.goal(), main.context(), main.summary() != null ? main.summary() : extra.summary(),
                main.addConstraints(), main.removeConstraints(), collected, main.removeCollected(), pointer,
                main.addPlan(), main.evaluatePlan(), main.addOpenQuestions(), main.answerOpenQuestions(), observations);
    }

    /** Names of the parts of the state a patch changes, for traces. */
    static List<String> fields(SessionPatch patch) {
        List<String> fields = new ArrayList<>();
        if (patch.goal() != null)
            fields.add("goal");
        if (patch.context() != null)
            fields.add("context");
        if (patch.summary() != null)
            fields.add("summary");
        if (!patch.addConstraints().isEmpty())
            fields.add("addConstraints");
        if (!patch.removeConstraints().isEmpty())
            fields.add("removeConstraints");
        patch.putCollected().keySet().forEach(k -> fields.add("collected." + k));
        if (!patch.removeCollected().isEmpty())
            fields.add("removeCollected");
        if (patch.stepPointer() != null)
            fields.add("stepPointer");
        if (patch.addPlan() != null)
            fields.add("addPlan");
        if (patch.evaluatePlan() != null)
            fields.add("evaluatePlan");
        if (!patch.addOpenQuestions().isEmpty())
            fields.add("addOpenQuestions");
        if (!patch.answerOpenQuestions().isEmpty())
            fields.add("answerOpenQuestions");
        if (!patch.addObservations().isEmpty())
            fields.add("addObservations");
        return fields;
    }
}

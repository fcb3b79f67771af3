package dev.mnemos.session;

import java.util.Collection;
import java.util.regex.Pattern;

/**
 * Checks a patch against the session model's rules before anything is written, naming the first
 * offending field ({@code patch.addConstraints[2].text}) and what was expected.
 */
public final class PatchValidator {

    private static final int MAX_ID = 128;
    private static final Pattern SLOT = Pattern.compile("[a-z][a-z0-9._-]{0,127}");

    private final SessionConfig limits;

    public PatchValidator(SessionConfig limits) {
        this.limits = limits;
    }

    public void validate(SessionPatch patch) {
        if (patch == null || patch.isEmpty()) {
            throw new InvalidPatchException("patch", "at least one change (goal, context, addConstraints, putCollected, …)");
        }
        optionalText("patch.goal", patch.goal());
        optionalText("patch.context", patch.context());
        optionalText("patch.summary", patch.summary());
        count("patch.addConstraints", patch.addConstraints());
        for (int i = 0; i < patch.addConstraints().size(); i++) {
            constraint("patch.addConstraints[" + i + "]", patch.addConstraints().get(i));
        }
        ids("patch.removeConstraints", patch.removeConstraints());
        count("patch.putCollected", patch.putCollected().keySet());
        patch.putCollected().forEach((key, value) -> {
            id("patch.putCollected", key);
            if (value == null) {
                throw new InvalidPatchException("patch.putCollected." + key, "a string value, not null");
            }
            text("patch.putCollected." + key, value, limits.maxTextChars(), true);
        });
        ids("patch.removeCollected", patch.removeCollected());
        if (patch.stepPointer() != null && patch.stepPointer().index() < 0) {
            throw new InvalidPatchException("patch.stepPointer.index", "an index of 0 or more");
        }
        if (patch.addPlan() != null) {
            text("patch.addPlan.content", patch.addPlan().content(), limits.maxPlanChars(), false);
            score("patch.addPlan.score", patch.addPlan().score());
            optionalText("patch.addPlan.feedback", patch.addPlan().feedback());
        }
        if (patch.evaluatePlan() != null) {
            if (patch.evaluatePlan().version() < 1) {
                throw new InvalidPatchException("patch.evaluatePlan.version", "a plan version of 1 or more");
            }
            score("patch.evaluatePlan.score", patch.evaluatePlan().score());
            optionalText("patch.evaluatePlan.feedback", patch.evaluatePlan().feedback());
        }
        texts("patch.addOpenQuestions", patch.addOpenQuestions());
        texts("patch.answerOpenQuestions", patch.answerOpenQuestions());
        count("patch.addObservations", patch.addObservations());
        for (int i = 0; i < patch.addObservations().size(); i++) {
            observation("patch.addObservations[" + i + "]", patch.addObservations().get(i));
        }
    }

    void constraint(String field, Constraint c) {
        if (c == null) {
            throw new InvalidPatchException(field, "a constraint object, not null");
        }
        if (c.id() != null) {
            id(field + ".id", c.id());
        }
        text(field + ".text", c.text(), limits.maxTextChars(), false);
    }

    void observation(String field, Observation o) {
        if (o == null) {
            throw new InvalidPatchException(field, "an observation object, not null");
        }
        if (o.id() != null) {
            id(field + ".id", o.id());
        }
        text(field + ".text", o.text(), limits.maxTextChars(), false);
        optionalText(field + ".evidence", o.evidence());
        if (o.slot() != null && !SLOT.matcher(o.slot()).matches()) {
            throw new InvalidPatchException(field + ".slot",
                    "a slot name such as output.language: lower-case letters, digits, . _ -, at most 128 characters");
        }
    }

    private void texts(String field, Collection<String> values) {
        count(field, values);
        int i = 0;
        for (String value : values) {
            text(field + "[" + i++ + "]", value, limits.maxTextChars(), false);
        }
    }

    private void ids(String field, Collection<String> values) {
        count(field, values);
        values.forEach(v -> id(field, v));
    }

    private void count(String field, Collection<?> values) {
        if (values.size() > limits.maxItemsPerPatch()) {
            throw new InvalidPatchException(field, "at most " + limits.maxItemsPerPatch() + " items, got " + values.size());
        }
    }

    private void optionalText(String field, String value) {
        if (value != null) {
            text(field, value, limits.maxTextChars(), true);
        }
    }

    private static void text(String field, String value, int max, boolean blankAllowed) {
        if (value == null || (!blankAllowed && value.isBlank())) {
            throw new InvalidPatchException(field, "a non-blank string");
        }
        if (value.length() > max) {
            throw new InvalidPatchException(field, "at most " + max + " characters, got " + value.length());
        }
    }

    static void id(String field, String value) {
        if (value == null || value.isBlank() || value.length() > MAX_ID) {
            throw new InvalidPatchException(field, "a non-blank id of at most " + MAX_ID + " characters");
        }
    }

    private static void score(String field, Double score) {
        if (score != null && (score.isNaN() || score < 0 || score > 10)) {
            throw new InvalidPatchException(field, "a score between 0 and 10, got " + score);
        }
    }
}

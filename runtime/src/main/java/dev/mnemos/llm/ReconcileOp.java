package dev.mnemos.llm;

/**
 * One validated decision of the reconcile model. {@code id} is the small integer id of a candidate
 * memory as shown to the model (null for ADD and NONE); {@code text} is set for ADD and UPDATE;
 * {@code category} and {@code slot} are optional hints, passed on unvalidated.
 */
public record ReconcileOp(Op op, Integer id, String text, String category, String slot) {

    public enum Op {
        ADD,
        UPDATE,
        DELETE,
        NONE
    }
}

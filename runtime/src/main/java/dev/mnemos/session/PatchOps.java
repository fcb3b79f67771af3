package dev.mnemos.session;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a patch into the operations of {@code session-patch.lua}: triples of op, field, value.
 * Removals come before additions, as in {@link SessionPatch#applyTo}.
 */
final class PatchOps {

    private final StateFields fields;
    private final List<String> ops = new ArrayList<>();

    private PatchOps(StateFields fields) {
        this.fields = fields;
    }

    /** The operations of {@code p} on a session of {@code userId} (its texts sealed for them when encryption is on). */
    static List<String> of(SessionPatch p, Instant at, StateFields fields, String u) {
        PatchOps o = new PatchOps(fields);
        o.scalar("goal", fields.seal(u, "goal", p.goal()));
        o.scalar("context", fields.seal(u, "context", p.context()));
        o.scalar("summary", fields.seal(u, "summary", p.summary()));
        o.scalar("step", p.stepPointer() == null ? null : fields.seal(u, "step", fields.write(p.stepPointer())));
        p.removeConstraints().forEach(id -> o.add("D", "c:" + id, ""));
        p.addConstraints().forEach(c -> o.add("O", "c:" + c.id(), fields.seal(u, "c", fields.write(c))));
        p.removeCollected().forEach(k -> o.add("D", "k:" + k, ""));
        p.putCollected().forEach((k, v) -> o.add("S", "k:" + k, fields.seal(u, "k", v)));
        p.answerOpenQuestions().forEach(q -> {
            o.add("D", fields.question(u, q), "");
            if (fields.sealing()) {
                o.add("D", "q:" + q, ""); // asked before encryption was on
            }
        });
        p.addOpenQuestions().forEach(q -> o.add("O", fields.question(u, q), fields.sealing() ? fields.seal(u, "q", q) : ""));
        p.addObservations().forEach(ob -> o.add("O", "o:" + ob.id(), fields.seal(u, "o", fields.write(ob))));
        if (p.evaluatePlan() != null) {
            var e = p.evaluatePlan();
            o.add("E", Integer.toString(e.version()),
                    fields.seal(u, "e", fields.write(new StateFields.PlanScore(e.score(), e.feedback()))));
        }
        if (p.addPlan() != null) {
            var plan = p.addPlan();
            String score = plan.score() == null && plan.feedback() == null ? ""
                    : fields.seal(u, "e", fields.write(new StateFields.PlanScore(plan.score(), plan.feedback())));
            o.add("P", score, StateFields.planBody(fields.seal(u, "p", plan.content()), at));
        }
        return o.ops;
    }

    private void scalar(String field, String value) {
        if (value != null) {
            add("S", field, value);
        }
    }

    private void add(String op, String field, String value) {
        ops.add(op);
        ops.add(field);
        ops.add(value);
    }
}

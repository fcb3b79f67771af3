package dev.mnemos.profile;

import dev.mnemos.llm.ReconcileModel;
import dev.mnemos.llm.ReconcileOp;
import dev.mnemos.llm.ReconcileRequest;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Turns one instruction into the change a writer wants, from the facts it read. With a model: the
 * near-duplicate candidates (embeddings, plus the holder of a detected slot) go to the reconcile
 * prompt under small ids and its operations are mapped back. Without a model, or when it gives no
 * usable answer: {@link DeterministicReconcile}. Either way the user's input is never lost.
 */
@ApplicationScoped
public class Reconciler {

    /** Which path produced a plan. */
    public enum Path {
        MODEL,
        DETERMINISTIC
    }

    /** The change set and how it was decided. */
    public record Plan(ChangeSet changes, Path path) {
    }

    private final ReconcileModel model;
    private final FactEmbeddings embeddings;
    private final ProfileConfig config;

    public Reconciler(ReconcileModel model, FactEmbeddings embeddings, ProfileConfig config) {
        this.model = model;
        this.embeddings = embeddings;
        this.config = config;
    }

    public Plan plan(List<FactDraft> base, Instruction instruction, SourceKind kind, double confidence) {
        DeterministicReconcile fallback = new DeterministicReconcile(embeddings, config, kind, confidence);
        if (!model.enabled()) {
            return new Plan(fallback.plan(base, instruction), Path.DETERMINISTIC);
        }
        List<FactDraft> candidates = candidates(base, instruction.original());
        Optional<List<ReconcileOp>> ops = model.reconcile(new ReconcileRequest(LocalDate.now(),
                candidates.stream().map(FactDraft::text).toList(), instruction.original()));
        return ops.map(o -> new Plan(apply(base, candidates, o, instruction, fallback), Path.MODEL))
                .orElseGet(() -> new Plan(fallback.plan(base, instruction), Path.DETERMINISTIC));
    }

    private List<FactDraft> candidates(List<FactDraft> base, String text) {
        Set<FactDraft> result = new LinkedHashSet<>();
        SlotRules.detect(text).ifPresent(slot -> base.stream().filter(f -> slot.name().equals(f.slot())).forEach(result::add));
        FactEmbeddings.nearest(embeddings.embed(text), base, config.candidateSimilarity(), config.reconcileCandidates())
                .forEach(s -> result.add(s.fact()));
        return List.copyOf(result);
    }

    private ChangeSet apply(List<FactDraft> base, List<FactDraft> candidates, List<ReconcileOp> ops,
            Instruction instruction, DeterministicReconcile fallback) {
        List<FactDraft> incoming = new ArrayList<>(base);
        Set<Long> forget = new HashSet<>();
        boolean wrote = false;
        for (ReconcileOp op : ops) {
            switch (op.op()) {
                case ADD -> wrote = incoming.add(fallback.draft(op.text(), op.category(), op.slot()));
                case UPDATE -> {
                    FactDraft old = candidates.get(op.id());
                    incoming.remove(old);
                    wrote = incoming
                            .add(fallback.draft(op.text(), op.category(), op.slot()).replacing(old.id(), old.taskState()));
                }
                case DELETE -> {
                    FactDraft old = candidates.get(op.id());
                    incoming.remove(old);
                    if (instruction instanceof Instruction.Forget) {
                        forget.add(old.id());
                    }
                    wrote = true;
                }
                case NONE -> wrote |= !candidates.isEmpty();
            }
        }
        if (!wrote && instruction instanceof Instruction.Remember) {
            return fallback.plan(base, instruction);
        }
        return new ChangeSet(base, incoming, forget);
    }
}

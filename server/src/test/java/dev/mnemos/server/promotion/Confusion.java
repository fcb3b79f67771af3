package dev.mnemos.server.promotion;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Outcomes of a labelled table through one path, as a confusion matrix with the measures. */
final class Confusion {

    /** Where a row ended. */
    enum Outcome {
        /** A fact of the row reached the profile (for MIXED: a fact holding the task words). */
        PROFILE,
        /** Nothing promoted; a candidate waits for confirmation (MIXED: one holding the task words). */
        PENDING,
        /** Decided and rejected. */
        REJECTED,
        /** Never a candidate at all (agent path: not observed). */
        NOT_CAPTURED
    }

    private final String path;
    private final Map<StatementTable.Label, Map<Outcome, Integer>> counts = new EnumMap<>(StatementTable.Label.class);
    private final Map<StatementTable.Label, Integer> standingKept = new EnumMap<>(StatementTable.Label.class);
    private final List<String> misses = new ArrayList<>();

    Confusion(String path) {
        this.path = path;
    }

    /**
     * @param outcome for MIXED rows, the task clause's outcome
     * @param standingKept for standing and MIXED rows, whether the standing part was promoted or left pending
     */
    void add(StatementTable.Row row, Outcome outcome, boolean standingKept, String detail) {
        counts.computeIfAbsent(row.label(), l -> new EnumMap<>(Outcome.class)).merge(outcome, 1, Integer::sum);
        if (standingKept) {
            this.standingKept.merge(row.label(), 1, Integer::sum);
        }
        boolean wrong = row.label().taskOnly() ? outcome != Outcome.REJECTED && outcome != Outcome.NOT_CAPTURED
                : row.label().standing() ? outcome != Outcome.PROFILE
                        : !standingKept || outcome == Outcome.PROFILE || outcome == Outcome.PENDING;
        if (wrong) {
            misses.add(row.label() + "\t" + row.language() + "\t" + outcome + "\t" + row.text() + "\t" + detail);
        }
    }

    int count(StatementTable.Label label, Outcome outcome) {
        return counts.getOrDefault(label, Map.of()).getOrDefault(outcome, 0);
    }

    int total(StatementTable.Label label) {
        return counts.getOrDefault(label, Map.of()).values().stream().mapToInt(Integer::intValue).sum();
    }

    int taskOnly(Outcome outcome) {
        return count(StatementTable.Label.TASK, outcome) + count(StatementTable.Label.ONE_OFF, outcome)
                + count(StatementTable.Label.EVENT, outcome);
    }

    int taskOnlyTotal() {
        return total(StatementTable.Label.TASK) + total(StatementTable.Label.ONE_OFF) + total(StatementTable.Label.EVENT);
    }

    /** Standing rows (explicit, implicit and the standing clause of mixed rows) promoted or pending. */
    double standingRecall() {
        int kept = standingKept.values().stream().mapToInt(Integer::intValue).sum();
        int all = total(StatementTable.Label.STANDING_EXPLICIT) + total(StatementTable.Label.STANDING_IMPLICIT)
                + total(StatementTable.Label.MIXED);
        return all == 0 ? 0 : (double) kept / all;
    }

    double explicitPromoted() {
        int all = total(StatementTable.Label.STANDING_EXPLICIT);
        return all == 0 ? 0 : (double) count(StatementTable.Label.STANDING_EXPLICIT, Outcome.PROFILE) / all;
    }

    double taskPending() {
        return taskOnlyTotal() == 0 ? 0 : (double) taskOnly(Outcome.PENDING) / taskOnlyTotal();
    }

    String render() {
        return render(true);
    }

    /** @param misses whether to list the wrongly decided rows (left out for rows that must not steer tuning) */
    String render(boolean misses) {
        StringBuilder out = new StringBuilder("== " + path + " ==\n");
        out.append(String.format("%-18s", "label"));
        for (Outcome o : Outcome.values()) {
            out.append(String.format("%14s", o));
        }
        out.append(String.format("%14s%n", "standing kept"));
        for (StatementTable.Label label : StatementTable.Label.values()) {
            out.append(String.format("%-18s", label));
            for (Outcome o : Outcome.values()) {
                out.append(String.format("%14d", count(label, o)));
            }
            out.append(String.format("%14s%n", label.taskOnly() ? "-" : standingKept.getOrDefault(label, 0)));
        }
        out.append(String.format("task-only rows in the profile: %d of %d%n", taskOnly(Outcome.PROFILE), taskOnlyTotal()));
        out.append(String.format("task-only rows left PENDING: %.1f %%%n", 100 * taskPending()));
        out.append(String.format("mixed rows with the task clause in the profile: %d of %d%n",
                count(StatementTable.Label.MIXED, Outcome.PROFILE), total(StatementTable.Label.MIXED)));
        out.append(String.format("standing rows promoted or pending: %.1f %%%n", 100 * standingRecall()));
        out.append(String.format("explicit standing rows promoted: %.1f %%%n", 100 * explicitPromoted()));
        Map<String, Integer> byLanguage = new TreeMap<>();
        this.misses.forEach(m -> byLanguage.merge(m.split("\t")[1], 1, Integer::sum));
        out.append("misses by language: ").append(byLanguage).append('\n');
        if (misses) {
            this.misses.forEach(m -> out.append("  miss: ").append(m).append('\n'));
        }
        return out.toString();
    }
}

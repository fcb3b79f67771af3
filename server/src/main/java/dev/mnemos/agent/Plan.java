package dev.mnemos.agent;

import java.util.List;
import java.util.stream.IntStream;

/** A plan as the decomposer returns it: a title and ordered steps. */
public record Plan(String title, List<String> steps) {

    public Plan {
        steps = steps == null ? List.of() : steps.stream().filter(s -> s != null && !s.isBlank()).toList();
    }

    /** The plan text stored as a plan version: the title, then one numbered line per step. */
    public String content() {
        String heading = title == null || title.isBlank() ? "" : title.strip() + "\n";
        return heading + String.join("\n", IntStream.range(0, steps.size())
                .mapToObj(i -> (i + 1) + ". " + steps.get(i).strip()).toList());
    }
}

package dev.mnemos.agent;

import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionState;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Renders the session state as the memory block of the agent's prompts: key-value lines, every
 * constraint, the latest two plan versions. The block is data: the prompts fence it and say so.
 */
public final class MemoryBlock {

    private MemoryBlock() {
    }

    public static String render(SessionState s) {
        StringBuilder b = new StringBuilder();
        b.append("session: ").append(s.sessionId()).append(" v").append(s.version()).append('\n');
        b.append("goal: ").append(s.goal() == null ? "(none)" : s.goal()).append('\n');
        s.constraints().forEach(c -> b.append("constraint [").append(c.scope()).append("]: ").append(c.text()).append('\n'));
        s.observations().forEach(o -> b.append("observation [").append(o.scope()).append(' ').append(o.kind())
                .append("]: ").append(o.text()).append('\n'));
        s.collected().forEach((k, v) -> b.append(k).append(": ").append(v).append('\n'));
        s.openQuestions().forEach(q -> b.append("open question: ").append(q).append('\n'));
        if (s.stepPointer() != null) {
            b.append("step: ").append(s.stepPointer().name()).append('\n');
        }
        List<PlanVersion> plans = s.plans();
        plans.subList(Math.max(0, plans.size() - 2), plans.size()).forEach(p -> b.append(plan(p)));
        return b.toString().strip();
    }

    private static String plan(PlanVersion p) {
        String evaluation = p.score() == null ? "not evaluated" : "score " + p.score() + ", feedback: " + p.feedback();
        return "plan v" + p.version() + " (" + evaluation + "):\n" + p.content().lines()
                .map(l -> "  " + l).collect(Collectors.joining("\n")) + '\n';
    }
}

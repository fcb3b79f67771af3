package dev.mnemos.agent;

import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionState;

import java.util.stream.Collectors;

/**
 * The user messages the agent sends to its analysis, decomposition and evaluation prompts: the
 * request of this step in {@code ## Section} blocks. The memory block in the system message carries
 * the rest of the session and the profile.
 */
public final class Briefs {

    private Briefs() {
    }

    public static String analysis(SessionState state, String message) {
        return section("Task", "Analyse the message.") + section("Message", message) + known(state);
    }

    public static String decomposition(SessionState state, int version, String remarks) {
        PlanVersion previous = state.latestPlan();
        String brief = section("Task", "Write plan version " + version + ".") + known(state);
        if (previous != null) {
            brief += section("Previous plan", "version " + previous.version() + "\n" + previous.content())
                    + section("Feedback", previous.feedback() == null ? "(none)" : previous.feedback());
        }
        return remarks == null ? brief : brief + section("User remarks", remarks);
    }

    public static String evaluation(SessionState state, PlanVersion plan) {
        return section("Task", "Evaluate plan version " + plan.version() + ".") + known(state)
                + section("Plan", plan.content());
    }

    private static String known(SessionState state) {
        String constraints = state.constraints().stream()
                .map(c -> "- [" + c.scope() + "] " + c.text()).collect(Collectors.joining("\n"));
        return section("Goal", state.goal() == null ? "(none)" : state.goal())
                + section("Constraints", constraints.isEmpty() ? "(none)" : constraints);
    }

    private static String section(String name, String body) {
        return "## " + name + "\n" + body.strip() + "\n";
    }
}

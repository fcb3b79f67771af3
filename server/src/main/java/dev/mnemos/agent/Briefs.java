package dev.mnemos.agent;

import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionState;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The user messages the agent sends to its analysis, decomposition and evaluation prompts: what
 * this step works on, in {@code ## Section} blocks. The memory block in the system message carries
 * the rest of the session and the profile.
 */
public final class Briefs {

    private static final Pattern EVALUATED = Pattern.compile("Evaluate plan version (\\d+)\\.");

    private Briefs() {
    }

    public static String analysis(SessionState state, String message, Language lang) {
        return section("Task", "Analyse the message.") + section("Message", message) + known(state, lang);
    }

    public static String decomposition(SessionState state, int version, String remarks, Language lang) {
        PlanVersion previous = state.latestPlan();
        String brief = section("Task", "Write plan version " + version + ".") + known(state, lang);
        if (previous != null) {
            brief += section("Previous plan", "version " + previous.version() + "\n" + previous.content())
                    + section("Feedback", previous.feedback() == null ? "(none)" : previous.feedback());
        }
        return remarks == null ? brief : brief + section("User remarks", remarks);
    }

    public static String evaluation(SessionState state, PlanVersion plan, Language lang) {
        return section("Task", "Evaluate plan version " + plan.version() + ".") + known(state, lang)
                + section("Plan", plan.content());
    }

    /** The plan version an evaluation brief names. */
    public static int evaluatedVersion(String brief) {
        Matcher m = EVALUATED.matcher(brief);
        if (!m.find()) {
            throw new IllegalArgumentException("not an evaluation brief");
        }
        return Integer.parseInt(m.group(1));
    }

    private static String known(SessionState state, Language lang) {
        String constraints = state.constraints().stream()
                .map(c -> "- [" + c.scope() + "] " + c.text()).collect(Collectors.joining("\n"));
        return section("Goal", state.goal() == null ? "(none)" : state.goal())
                + section("Constraints", constraints.isEmpty() ? "(none)" : constraints)
                + section("Language", lang == Language.ZH ? "Chinese (中文)" : "English");
    }

    private static String section(String name, String body) {
        return "## " + name + "\n" + body.strip() + "\n";
    }
}

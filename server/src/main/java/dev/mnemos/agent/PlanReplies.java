package dev.mnemos.agent;

import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionState;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The agent's replies that show plan versions. */
final class PlanReplies {

    private PlanReplies() {
    }

    static String latest(SessionState s, Language lang) {
        PlanVersion plan = s.latestPlan();
        String reply = Phrase.PLAN.in(lang, plan.version(), score(plan), plan.content(), plan.feedback());
        List<PlanVersion> earlier = s.plans().subList(0, s.plans().size() - 1);
        if (!earlier.isEmpty()) {
            reply += "\n" + Phrase.EARLIER.in(lang, versions(earlier));
        }
        return reply + "\n" + Phrase.NEXT_STEPS.in(lang);
    }

    static String versions(List<PlanVersion> plans) {
        return plans.stream().map(p -> "v" + p.version() + " (" + score(p) + ")").collect(Collectors.joining(", "));
    }

    static String score(PlanVersion plan) {
        if (plan.score() == null) {
            return "-";
        }
        double s = plan.score();
        return s == Math.rint(s) ? String.valueOf((long) s) : String.format(Locale.ROOT, "%.1f", s);
    }
}

package dev.mnemos.capture;

import dev.mnemos.injection.StepCapture;
import dev.mnemos.profile.FactText;
import dev.mnemos.profile.SlotRules;
import dev.mnemos.promotion.Markers;
import dev.mnemos.promotion.Reading;
import dev.mnemos.session.Constraint;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What one turn of a task tells its state, read from the user's message with the clause reading and marker files
 * that promotion uses ({@link Markers}), in every language they cover. Deterministic and pure:
 * <ul>
 * <li>the <b>goal</b>: the first clause of the first message that does not read as standing, and a later clause that
 * says the task changed ("… instead", "换成 …");</li>
 * <li><b>constraints</b> with their scope: a clause that reads task-scoped (a budget, "this time", a one-off, a request
 * that restricts: "no flights", "only trains") as TASK, a clause that reads standing ("from now on", "I'm vegetarian")
 * as STABLE; a plain request ("plan the days") is not a constraint;</li>
 * <li><b>observations</b> for promotion: each standing clause (scope STABLE), and a clause with no cue that speaks about
 * the user (no scope: the end of the task leaves it for confirmation), except in the opening message, whose cue-less
 * clauses state the goal, and in a question;</li>
 * <li><b>open questions</b>: the questions the answer leaves; the user's next message answers the ones before.</li>
 * </ul>
 * A clause the session already holds (as a constraint or observation, same words) is not added again. A question the
 * user asks adds no task constraint.
 */
public final class TurnCapture implements StepCapture {

    /** Longest text a captured item keeps, in characters. */
    public static final int MAX_CHARS = 500;
    /** The {@link Constraint#source()} of captured constraints. */
    public static final String SOURCE = "user";

    private static final Pattern SENTENCE = Pattern.compile("(?<=[.!?。！？])\\s*|\\n+");
    private static final Pattern QUESTION = Pattern.compile("[?？]\\s*$");
    /** Words that say the task itself changed, in the shipped languages. */
    private static final Pattern CHANGE = Pattern.compile("\\binstead\\b|\\bchange of plans?\\b|\\bnew (trip|task|plan)\\b"
            + "|\\bforget (that|it|the)\\b|改成|换成|改为|改去|换个|en su lugar|cambio de planes|stattdessen|planänderung"
            + "|à la place|changement de programme|代わりに|変更して", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    /** Words that make a request a restriction, in the shipped languages (besides a negation). */
    private static final Pattern RESTRICT = Pattern.compile("\\b(only|just|at most|at least|max(imum)?|min(imum)?|under|below"
            + "|within|without|avoid|except|solo|sin|nur|ohne|höchstens|seulement|sans|uniquement)\\b|只|最多|至少|以内|以下|避免|除了|だけ|まで",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    private final Markers markers;

    /** @param markers the languages to read ({@link Markers#DEFAULT}: the shipped ones) */
    public TurnCapture(Markers markers) {
        this.markers = markers;
    }

    /**
     * What one turn adds to the task's state.
     *
     * @param goal the task's goal when this turn set or changed it, else null
     * @param answered open questions of the state this turn's message answers
     */
    public record Captured(String goal, List<Constraint> constraints, List<Observation> observations,
            List<String> questions, List<String> answered) {

        /** Adds everything captured to {@code patch}. */
        public SessionPatch.Builder addTo(SessionPatch.Builder patch) {
            if (goal != null) {
                patch.goal(goal);
            }
            constraints.forEach(patch::addConstraint);
            observations.forEach(patch::addObservation);
            answered.forEach(patch::answerOpenQuestion);
            questions.forEach(patch::addOpenQuestion);
            return patch;
        }
    }

    @Override
    public SessionPatch.Builder capture(SessionState state, String message, String answer, SessionPatch.Builder patch) {
        return capture(state, message, answer).addTo(patch);
    }

    /**
     * What a turn with {@code message} (the user's, may be null) and {@code answer} (the model's text, may be null)
     * adds to {@code state}.
     */
    public Captured capture(SessionState state, String message, String answer) {
        String goal = null;
        List<Constraint> constraints = new ArrayList<>();
        List<Observation> observations = new ArrayList<>();
        Set<String> known = known(state);
        boolean opening = state.goal() == null || state.goal().isBlank();
        for (String sentence : sentences(message)) {
            boolean asks = QUESTION.matcher(sentence).find();
            for (String clause : markers.clauses(sentence)) {
                String text = cut(clause);
                Reading reading = markers.read(clause);
                Optional<Observation> observed = observation(clause, reading, opening && goal == null);
                boolean goalOpens = opening && goal == null;
                if (reading.scope() == Scope.STABLE) {
                    if (known.add(FactText.normalise(text))) {
                        constraints.add(new Constraint(null, text, Scope.STABLE, SOURCE));
                        observed.ifPresent(observations::add);
                    }
                } else if (goalOpens) {
                    goal = text;
                } else if (!opening && goal == null && !asks && CHANGE.matcher(clause).find()) {
                    goal = text;
                } else if (observed.isPresent() && !asks) {
                    if (known.add(FactText.normalise(text))) {
                        observations.add(observed.get());
                    }
                } else if (!asks && binding(clause, reading) && known.add(FactText.normalise(text))) {
                    constraints.add(new Constraint(null, text, Scope.TASK, SOURCE));
                }
            }
        }
        boolean said = message != null && !message.isBlank();
        return new Captured(goal, constraints, observations, questions(answer),
                said ? state.openQuestions() : List.of());
    }

    /**
     * The observations {@code message} gives promotion, as {@link #capture} records them: each standing clause (scope
     * STABLE), and each clause with no cue that speaks about the user (scope UNKNOWN), unless it is asked as a question
     * or, in a message that opens a task ({@code opening}), it is the first clause that does not read standing (it
     * states the goal).
     */
    public List<Observation> observations(String message, boolean opening) {
        List<Observation> observations = new ArrayList<>();
        boolean goal = !opening;
        for (String sentence : sentences(message)) {
            boolean asks = QUESTION.matcher(sentence).find();
            for (String clause : markers.clauses(sentence)) {
                Reading reading = markers.read(clause);
                boolean opens = !goal && reading.scope() != Scope.STABLE;
                goal |= opens;
                observation(clause, reading, opens || asks).ifPresent(observations::add);
            }
        }
        return observations;
    }

    private Optional<Observation> observation(String clause, Reading reading, boolean opening) {
        if (reading.scope() == Scope.STABLE) {
            return Optional.of(observation(clause, Scope.STABLE));
        }
        boolean aboutTheUser = reading.kind() == Reading.Kind.NONE && markers.personal(clause);
        return aboutTheUser && !opening ? Optional.of(observation(clause, Scope.UNKNOWN)) : Optional.empty();
    }

    /**
     * Whether a task-scoped clause binds the task: a budget, date, "this time", a one-off or an event does; a request
     * ("find a hotel", "plan the days") only when it restricts ("no flights", "only trains", "不要红眼航班").
     */
    private boolean binding(String clause, Reading reading) {
        if (reading.scope() != Scope.TASK) {
            return false;
        }
        return reading.kind() != Reading.Kind.REQUEST || markers.negative(clause) || RESTRICT.matcher(clause).find();
    }

    /** The clauses of {@code message} as promotion reads them. */
    public List<String> clauses(String message) {
        return markers.clauses(message == null ? "" : message);
    }

    private static Observation observation(String clause, Scope scope) {
        String text = cut(clause);
        String slot = SlotRules.detect(clause).map(SlotRules.Slot::name).orElse(null);
        return new Observation(null, text, Observation.Kind.PREFERENCE, scope, slot, true, text);
    }

    /** The normalised texts of the state's constraints and observations. */
    private static Set<String> known(SessionState state) {
        Set<String> known = new HashSet<>();
        state.constraints().forEach(c -> known.add(FactText.normalise(c.text())));
        state.observations().forEach(o -> known.add(FactText.normalise(o.text())));
        return known;
    }

    /** The sentences of the answer that end in a question mark. */
    static List<String> questions(String answer) {
        List<String> questions = new ArrayList<>();
        for (String sentence : sentences(answer)) {
            if (QUESTION.matcher(sentence).find() && sentence.length() > 3) {
                questions.add(cut(sentence));
            }
        }
        return questions;
    }

    private static List<String> sentences(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        List<String> sentences = new ArrayList<>();
        for (String sentence : SENTENCE.split(text.strip())) {
            if (!sentence.isBlank()) {
                sentences.add(sentence.strip());
            }
        }
        return sentences;
    }

    private static String cut(String text) {
        String stripped = text.strip();
        return stripped.length() <= MAX_CHARS ? stripped : stripped.substring(0, MAX_CHARS - 1) + "…";
    }
}

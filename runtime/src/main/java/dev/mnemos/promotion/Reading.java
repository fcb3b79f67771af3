package dev.mnemos.promotion;

import dev.mnemos.session.Scope;

/**
 * How one clause reads: what kind of statement it is and the words that show it ({@code cue}, null
 * for {@link Kind#NONE}).
 */
public record Reading(Kind kind, String cue) {

    public static final Reading NONE = new Reading(Kind.NONE, null);

    /** The kinds of statement, strongest first in the order {@link Markers#read} checks them. */
    public enum Kind {
        /**
         * A request to forget something about the user ("forget that I live in Boston"): never a fact, it waits for the
         * user's confirmation, which forgets what it names. Standing, since it changes the profile for good.
         */
        FORGET(Scope.STABLE, "a request to forget, not a fact"),
        /** A one-off circumstance given as a reason ("I had milk today so no crab"). */
        ONE_OFF(Scope.TASK, "a one-off circumstance"),
        /** A temporary marker ("this time", "这次"). */
        TEMPORARY(Scope.TASK, "holds for this task only"),
        /** An explicit standing marker ("from now on", "以后都"). */
        STANDING(Scope.STABLE, "standing preference"),
        /** A habit stated without the usual markers ("I never …", "我一般 …", "I no longer …"). */
        HABITUAL(Scope.STABLE, "habitual statement"),
        /** A dated event ("my flight was moved to 9 am"). */
        EVENT(Scope.TASK, "an event, not a preference"),
        /** About an object of this task ("this report", "the second option"). */
        TASK_OBJECT(Scope.TASK, "about this task's object"),
        /** A budget, price, deadline or count of this task. */
        TASK_DETAIL(Scope.TASK, "a detail of this task"),
        /** A first-person lasting property ("I prefer trains", "I'm vegetarian", "remember I …"). */
        PROPERTY(Scope.STABLE, "stated about the user"),
        /** A request or constraint on the work at hand ("find a hotel", "no flights"). */
        REQUEST(Scope.TASK, "a request for this task"),
        /** Nothing tells how long it holds. */
        NONE(Scope.UNKNOWN, "no scope cue");

        private final Scope scope;
        private final String meaning;

        Kind(Scope scope, String meaning) {
            this.scope = scope;
            this.meaning = meaning;
        }

        public Scope scope() {
            return scope;
        }

        /** Words for a reason shown to the user. */
        public String meaning() {
            return meaning;
        }
    }

    public Scope scope() {
        return kind.scope();
    }

    /** "standing preference ('from now on')". */
    public String describe() {
        return cue == null ? kind.meaning() : kind.meaning() + " ('" + cue + "')";
    }
}

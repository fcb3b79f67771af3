package dev.mnemos.profile;

/**
 * How a statement stands on its topic, for contradictions without a slot: "I don't eat red meat" and
 * "from now on red meat is fine" are about the same thing ({@link #topic}) with opposite polarity
 * ({@link #negative}). The language knowledge lives with the caller (promotion's marker files).
 */
public interface Stance {

    /** Never sees a contradiction. */
    Stance NONE = new Stance() {
        @Override
        public String topic(String text) {
            return text;
        }

        @Override
        public boolean negative(String text) {
            return false;
        }

        @Override
        public boolean judges() {
            return false;
        }
    };

    /** What {@code text} is about: its words without polarity, habit and standing words. */
    String topic(String text);

    /** Whether {@code text} says no to its topic. */
    boolean negative(String text);

    /** Whether this stance can tell contradictions at all. */
    default boolean judges() {
        return true;
    }
}

package dev.mnemos.promotion;

import dev.mnemos.profile.Stance;
import dev.mnemos.profile.Topics;

/**
 * What one statement is about ({@link Stance#topic}) and whether it says no ({@link Stance#negative}),
 * each read on first use and kept: running the marker patterns of every language over a text is the
 * costly part of comparing two candidates, and a candidate is compared with many earlier ones.
 * Not thread-safe; lives for one comparison run.
 */
final class Gist {

    private final Stance stance;
    private final String text;
    private String topic;
    private Boolean negative;

    Gist(Stance stance, String text) {
        this.stance = stance;
        this.text = text;
    }

    String topic() {
        if (topic == null) {
            topic = stance.topic(text);
        }
        return topic;
    }

    boolean negative() {
        if (negative == null) {
            negative = stance.negative(text);
        }
        return negative;
    }

    /** Share of topic words the two have in common ({@link Topics#similarity}). */
    double words(Gist other) {
        return Topics.similarity(topic(), other.topic());
    }
}

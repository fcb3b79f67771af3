package dev.mnemos.promotion;

/**
 * What earlier sessions and the user say about a candidate.
 *
 * @param earlierSessions ended sessions before this one that observed the same candidate, since the
 *        last contradicting observation on its slot
 * @param contradictions observations in this session that give its slot a different value
 * @param confirmed the user confirmed it
 */
public record Evidence(int earlierSessions, int contradictions, boolean confirmed) {

    public static final Evidence NONE = new Evidence(0, 0, false);
}

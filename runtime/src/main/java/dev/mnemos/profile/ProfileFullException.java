package dev.mnemos.profile;

/** A direct write would take the profile beyond its cap of active facts; nothing was written. */
public class ProfileFullException extends RuntimeException {

    private final int maxFacts;

    public ProfileFullException(int maxFacts) {
        super("the profile already holds the maximum of " + maxFacts + " active facts");
        this.maxFacts = maxFacts;
    }

    public int maxFacts() {
        return maxFacts;
    }
}

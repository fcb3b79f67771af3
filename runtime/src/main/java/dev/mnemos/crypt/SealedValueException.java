package dev.mnemos.crypt;

/**
 * A sealed value that does not open: it was copied from another user or place (its associated data differs), altered,
 * or its user's data key is gone (the user was erased, or the value comes from a restored backup). Never answered as
 * garbage. The message names the place, never the value or a key.
 */
public class SealedValueException extends RuntimeException {

    private final String place;

    public SealedValueException(String place, String why, Throwable cause) {
        super("a sealed value of " + place + " does not open: " + why, cause);
        this.place = place;
    }

    /** The table and column, as {@code table.column}. */
    public String place() {
        return place;
    }
}

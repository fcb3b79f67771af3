package dev.mnemos.profile;

/** Input to a profile write breaks a rule; {@code field} names it. Nothing was written. */
public class InvalidFactException extends RuntimeException {

    private final String field;

    public InvalidFactException(String field, String expectation) {
        super(expectation);
        this.field = field;
    }

    public String field() {
        return field;
    }
}

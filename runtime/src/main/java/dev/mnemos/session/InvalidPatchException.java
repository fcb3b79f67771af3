package dev.mnemos.session;

/** A patch or request that breaks a rule of the session model; nothing was written. */
public class InvalidPatchException extends RuntimeException {

    private final String field;

    public InvalidPatchException(String field, String expectation) {
        super(expectation);
        this.field = field;
    }

    public String field() {
        return field;
    }
}

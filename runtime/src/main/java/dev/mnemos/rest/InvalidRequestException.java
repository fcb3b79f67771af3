package dev.mnemos.rest;

/** A request field that fails validation: answered 400 with the field and the expectation. */
public class InvalidRequestException extends RuntimeException {

    private final String field;

    public InvalidRequestException(String field, String expectation) {
        super(expectation);
        this.field = field;
    }

    public String field() {
        return field;
    }
}

package dev.mnemos.injection;

/**
 * The patch built from the model's answer broke a session rule (for example a plan over the size
 * cap): the step was not written. The caller's input was fine; the model's output was not.
 */
public class StepWriteRejectedException extends RuntimeException {

    private final String sessionId;
    private final String field;

    public StepWriteRejectedException(String sessionId, String field, String expectation) {
        super("the model's answer could not be stored in session " + sessionId + ": " + field + " must be "
                + expectation + "; nothing was written");
        this.sessionId = sessionId;
        this.field = field;
    }

    public String sessionId() {
        return sessionId;
    }

    public String field() {
        return field;
    }
}

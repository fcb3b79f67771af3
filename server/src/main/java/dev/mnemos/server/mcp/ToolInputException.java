package dev.mnemos.server.mcp;

/** A tool argument that breaks the tool's input schema: answered as a tool error naming the field. Nothing was written. */
class ToolInputException extends RuntimeException {

    private final String field;

    ToolInputException(String field, String expectation) {
        super(expectation);
        this.field = field;
    }

    String field() {
        return field;
    }
}

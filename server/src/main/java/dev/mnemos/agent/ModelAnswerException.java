package dev.mnemos.agent;

/** A model answered, but not with something the agent can use; nothing was written for that step. */
public class ModelAnswerException extends RuntimeException {

    private final String prompt;

    public ModelAnswerException(String prompt, String expectation) {
        super("the model's answer to '" + prompt + "' was not " + expectation);
        this.prompt = prompt;
    }

    public String prompt() {
        return prompt;
    }
}

package dev.mnemos.agent;

/**
 * The intent router's answer.
 *
 * @param intent what the message asks for; never null once normalised
 * @param planVersion the plan version named by a {@link Intent#ROLLBACK_PLAN} message, else null
 * @param reason a short justification, for the trace; may be null
 */
public record Routing(Intent intent, Integer planVersion, String reason) {

    public Routing {
        intent = intent == null ? Intent.UNRECOGNIZED : intent;
    }
}

package dev.mnemos.profile;

/**
 * Fired synchronously after a "forget …" instruction was applied to the profile, so texts held outside the
 * profile's facts (promotion candidates, whatever their status) that match {@code target} are forgotten too;
 * {@code forgotFact}: the instruction forgot a fact.
 */
public record ForgetAsked(String userId, String actor, String target, boolean forgotFact) {
}

package dev.mnemos.profile;

import java.util.List;
import java.util.function.Consumer;

/**
 * Fired synchronously after a "forget …" instruction was applied to the profile, so texts held outside the
 * profile's facts (promotion candidates, whatever their status) that match {@code target} are forgotten too;
 * {@code forgotFact}: the instruction forgot a fact; {@code report} takes the changes (FORGET events) an observer
 * wrote, which the instruction's answer lists with its own.
 */
public record ForgetAsked(String userId, String actor, String target, boolean forgotFact, Consumer<List<Change>> report) {
}

package dev.mnemos.app;

import dev.mnemos.profile.ActiveFact;

import java.util.List;

/** A user's profile: the active facts, oldest first. */
public record ProfileResponse(String userId, List<ActiveFact> facts) {
}

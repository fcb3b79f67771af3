package dev.mnemos.profile;

import java.time.Instant;
import java.util.List;

/** A user's profile as it was at {@code asOf}: the facts valid then, oldest first. */
public record ProfileAsOf(String userId, Instant asOf, List<FactAt> facts) {
}

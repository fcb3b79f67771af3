package dev.mnemos.injection;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/**
 * The user's active profile facts as read for one step.
 *
 * @param facts active facts, any order; never null
 * @param cache whether the profile came from the read cache
 * @param status LOADED, or MISSING when the profile could not be read and the step went on without it
 */
public record ProfileSnapshot(List<ProfileLine> facts, Cache cache, Status status) {

    public enum Cache {
        HIT,
        MISS,
        UNKNOWN
    }

    @Schema(name = "ProfileLoadStatus")
    public enum Status {
        LOADED,
        MISSING
    }

    public ProfileSnapshot {
        facts = facts == null ? List.of() : List.copyOf(facts);
    }

    public static ProfileSnapshot of(List<ProfileLine> facts, Cache cache) {
        return new ProfileSnapshot(facts, cache, Status.LOADED);
    }

    public static ProfileSnapshot missing() {
        return new ProfileSnapshot(List.of(), Cache.UNKNOWN, Status.MISSING);
    }
}

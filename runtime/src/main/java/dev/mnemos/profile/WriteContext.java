package dev.mnemos.profile;

/**
 * Who writes and how. {@code DIRECT} writes (the user adding or correcting a fact) are refused
 * beyond the cap; {@code AUTOMATIC} writes (instruct, import, promotion) evict the weakest facts
 * and audit the eviction. {@code addAction} is the audit verb of new facts (ADD, or PROMOTE).
 */
public record WriteContext(String userId, String actor, String sessionId, Mode mode, ProfileAction addAction,
        String reason) {

    public enum Mode {
        DIRECT,
        AUTOMATIC
    }

    public static WriteContext direct(String userId, String actor, String reason) {
        return new WriteContext(userId, actor, null, Mode.DIRECT, ProfileAction.ADD, reason);
    }

    public static WriteContext automatic(String userId, String actor, String reason) {
        return new WriteContext(userId, actor, null, Mode.AUTOMATIC, ProfileAction.ADD, reason);
    }
}

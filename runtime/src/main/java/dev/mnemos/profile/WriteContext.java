package dev.mnemos.profile;

/**
 * Who writes and how, which decides what the cap of active facts does: {@code DIRECT} writes (the
 * user adding or correcting a fact, confirming a candidate) are refused beyond it; {@code AUTOMATIC}
 * writes (instruct, import) evict the weakest facts and audit the eviction; {@code PROMOTION} writes (a
 * session end) never remove a fact to make room: the new facts that do not fit are left out, for the
 * caller to keep pending. {@code addAction} is the audit verb of new facts (ADD, or PROMOTE).
 */
public record WriteContext(String userId, String actor, String sessionId, Mode mode, ProfileAction addAction,
        String reason) {

    public enum Mode {
        DIRECT,
        AUTOMATIC,
        PROMOTION
    }

    public static WriteContext direct(String userId, String actor, String reason) {
        return new WriteContext(userId, actor, null, Mode.DIRECT, ProfileAction.ADD, reason);
    }

    public static WriteContext automatic(String userId, String actor, String reason) {
        return new WriteContext(userId, actor, null, Mode.AUTOMATIC, ProfileAction.ADD, reason);
    }
}

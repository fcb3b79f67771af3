package dev.mnemos.profile;

/**
 * One change a write made, as reported to the caller and written to the audit trail.
 * {@code before}/{@code after} are fact texts (null where there is none, and after a forget).
 *
 * @param eventId the audit event that records this change ({@code GET /v1/profile/history})
 */
public record Change(ProfileAction action, Long factId, String before, String after, String reason, Long eventId) {
}

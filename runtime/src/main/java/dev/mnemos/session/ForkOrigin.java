package dev.mnemos.session;

/** The session and version a forked session started from. */
public record ForkOrigin(String sessionId, long version) {
}

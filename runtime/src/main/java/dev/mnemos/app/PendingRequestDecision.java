package dev.mnemos.app;

/**
 * The user's decision on a {@link PendingRequest}: the request as it is now, whether it had been decided so already
 * ({@code repeated}: nothing was done again), and, for a confirm that carried the call out, its {@code result} (the
 * forget's or the instruction's write result, the undo's report).
 */
public record PendingRequestDecision(PendingRequest request, boolean repeated, Object result) {
}

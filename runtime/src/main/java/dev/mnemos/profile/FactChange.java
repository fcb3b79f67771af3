package dev.mnemos.profile;

/**
 * A fact that became valid ({@code added}) or stopped being valid ({@code removed}) between two instants, with the
 * audit event that did it ({@code by}; null only where the trail holds none).
 */
public record FactChange(String change, FactAt fact, HistoryEntry by) {
}

package dev.mnemos.rest;

import dev.mnemos.profile.HistoryEntry;

import java.util.List;

/** The audit trail, newest first. */
public record HistoryResponse(String userId, List<HistoryEntry> events) {
}

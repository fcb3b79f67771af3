package dev.mnemos.session;

import java.util.List;

/**
 * One page of a user's live session ids, newest first.
 *
 * @param next the position to read the following page from, or null on the last page
 */
public record SessionPage(List<String> ids, String next) {
}

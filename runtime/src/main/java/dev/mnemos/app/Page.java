package dev.mnemos.app;

import java.util.List;

/**
 * One page of a list: its items and the position the next page starts from, null on the last page. How a
 * position travels (an opaque cursor header, a tool's {@code nextCursor}) is the transport's business.
 */
public record Page<T>(List<T> items, Object next) {

    /**
     * The page of {@code size} items out of {@code read}, which holds one item more when a next page exists.
     *
     * @param position the next page's position, computed from the list read
     */
    static <T> Page<T> of(List<T> read, int size, Object position) {
        if (read.size() <= size) {
            return new Page<>(read, null);
        }
        return new Page<>(read.subList(0, size), position);
    }
}

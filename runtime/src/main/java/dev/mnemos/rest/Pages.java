package dev.mnemos.rest;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The paging convention of every list endpoint (docs/http-api.md, "Pagination"): query parameters
 * {@code limit} and {@code cursor}; when more items exist the answer carries
 * {@code Mnemos-Next-Cursor: <cursor>} and {@code Link: <url>; rel="next"}, both absent on the last
 * page. The body keeps its shape. A cursor is opaque to clients: base64url of {@code <kind>|<position>},
 * so a cursor of one list is refused by another.
 */
final class Pages {

    static final String NEXT_CURSOR = "Mnemos-Next-Cursor";

    private Pages() {
    }

    /** The page size asked for. @throws InvalidRequestException naming {@code limit} when not 1..max */
    static int limit(String limit, RestConfig config) {
        if (limit == null || limit.isEmpty()) {
            return Math.min(config.defaultPageSize(), config.maxPageSize());
        }
        try {
            int value = Integer.parseInt(limit);
            if (value >= 1 && value <= config.maxPageSize()) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new InvalidRequestException("limit", "a page size from 1 to " + config.maxPageSize());
    }

    /**
     * The position a cursor of list {@code kind} names, null without a cursor.
     *
     * @throws InvalidRequestException naming {@code cursor} when it is not one this list handed out
     */
    static String position(String cursor, String kind) {
        if (cursor == null) {
            return null;
        }
        try {
            String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (text.startsWith(kind + "|") && text.length() > kind.length() + 1) {
                return text.substring(kind.length() + 1);
            }
        } catch (IllegalArgumentException e) {
            // answered below
        }
        throw badCursor();
    }

    /** The position as a long (a version or a row id). */
    static long number(String cursor, String kind) {
        try {
            long value = Long.parseLong(position(cursor, kind));
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw badCursor();
    }

    static InvalidRequestException badCursor() {
        return new InvalidRequestException("cursor", "a cursor exactly as a previous page's " + NEXT_CURSOR
                + " header gave it");
    }

    static String cursor(String kind, Object position) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((kind + "|" + position).getBytes(StandardCharsets.UTF_8));
    }

    /** 200 with {@code body}; with the next-page headers when {@code nextPosition} is not null. */
    static Response page(Object body, String kind, Object nextPosition, UriInfo uri) {
        Response.ResponseBuilder ok = Response.ok(body);
        if (nextPosition != null) {
            String next = cursor(kind, nextPosition);
            ok.header(NEXT_CURSOR, next);
            ok.header("Link", "<" + uri.getRequestUriBuilder().replaceQueryParam("cursor", next).build() + ">; rel=\"next\"");
        }
        return ok.build();
    }
}

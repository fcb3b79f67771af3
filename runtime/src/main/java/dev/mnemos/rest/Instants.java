package dev.mnemos.rest;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Instants in query parameters: ISO-8601 with an offset ({@code 2026-12-04T10:15:30Z}, {@code …+01:00}). */
final class Instants {

    private Instants() {
    }

    /** {@code value} as an instant. @throws InvalidRequestException naming {@code field} when missing or malformed */
    static Instant parse(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidRequestException(field, "an ISO-8601 instant such as 2026-12-04T10:15:30Z; it is missing");
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException(field, "an ISO-8601 instant such as 2026-12-04T10:15:30Z");
        }
    }
}

package dev.mnemos.rest;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * Instants in query parameters: ISO-8601 with an offset ({@code 2026-12-04T10:15:30Z}, {@code …+01:00}), in the years
 * 0001 to 9999 (a year such as {@code +999999999} parses in Java but is beyond what Postgres stores).
 */
final class Instants {

    private static final String EXPECTED = "an ISO-8601 instant such as 2026-12-04T10:15:30Z, in the years 0001 to 9999";
    static final Instant FIRST = Instant.parse("0001-01-01T00:00:00Z");
    static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private Instants() {
    }

    /** {@code value} as an instant. @throws InvalidRequestException naming {@code field} when missing or malformed */
    static Instant parse(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidRequestException(field, EXPECTED + "; it is missing");
        }
        Instant instant;
        try {
            instant = OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new InvalidRequestException(field, EXPECTED);
        }
        if (instant.isBefore(FIRST) || instant.isAfter(LAST)) {
            throw new InvalidRequestException(field, EXPECTED + "; it is out of that range");
        }
        return instant;
    }
}

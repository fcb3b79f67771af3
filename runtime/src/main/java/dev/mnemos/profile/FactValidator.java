package dev.mnemos.profile;

import java.util.regex.Pattern;

/** Checks direct input against the profile's rules, naming the field at fault. Nothing is written before. */
final class FactValidator {

    private static final Pattern SLOT = Pattern.compile("[a-z][a-z0-9._-]{0,127}");

    private final ProfileConfig config;

    FactValidator(ProfileConfig config) {
        this.config = config;
    }

    void fact(NewFact fact) {
        if (fact == null) {
            throw new InvalidFactException("body", "a fact object with at least 'text'");
        }
        text("text", fact.text(), config.maxFactChars());
        if (fact.slot() != null && !SLOT.matcher(fact.slot()).matches()) {
            throw new InvalidFactException("slot",
                    "a slot name of lower-case letters, digits and . _ - (for example output.language)");
        }
        Double c = fact.confidence();
        if (c != null && (c.isNaN() || c < 0 || c > 1)) {
            throw new InvalidFactException("confidence", "a number between 0 and 1, got " + c);
        }
    }

    void input(String field, String text) {
        text(field, text, config.maxInputChars());
    }

    private static void text(String field, String value, int max) {
        if (value == null || value.isBlank()) {
            throw new InvalidFactException(field, "a non-blank string");
        }
        if (value.length() > max) {
            throw new InvalidFactException(field, "at most " + max + " characters, got " + value.length());
        }
    }
}

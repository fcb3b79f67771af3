package dev.mnemos.injection;

/**
 * One active profile fact as the memory block needs it.
 *
 * @param id the fact's id (for the trace); may be null
 * @param category LANGUAGE, FORMAT, DOMAIN, PREFERENCE, …; may be null
 * @param slot structured slot such as {@code output.language}, or null for free text
 * @param text the fact, never null
 * @param confidence 0..1
 */
public record ProfileLine(String id, String category, String slot, String text, double confidence) {

    public ProfileLine {
        text = text == null ? "" : text;
    }
}

package dev.mnemos.profile;

/** What kind of knowledge a profile fact holds. */
public enum Category {
    LANGUAGE,
    FORMAT,
    DOMAIN,
    PREFERENCE,
    PERSONA,
    INSTRUCTION,
    FACT
}

package dev.mnemos.profile;

/** Where a fact came from. */
public enum SourceKind {
    USER_STATEMENT,
    INSTRUCTION,
    IMPORT,
    PROMOTION
}

package dev.mnemos.rest;

/** Body of {@code POST /v1/profile/import}: free text exported from another assistant. */
public record ImportRequest(String text) {
}

package dev.mnemos.rest;

/** Body of {@code POST /v1/profile/instruct}: "remember …", "forget …", "I no longer …". */
public record InstructRequest(String instruction) {
}

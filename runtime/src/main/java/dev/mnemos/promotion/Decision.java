package dev.mnemos.promotion;

import dev.mnemos.session.Scope;

/** The policy's verdict on one candidate, its scope and confidence, and why, in words for the user. */
public record Decision(Verdict verdict, Scope scope, double confidence, String reason) {
}

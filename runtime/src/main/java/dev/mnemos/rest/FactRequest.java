package dev.mnemos.rest;

import dev.mnemos.profile.Category;
import dev.mnemos.profile.NewFact;
import dev.mnemos.profile.TaskState;

/** Body of adding or correcting a fact: {@code text} is required, the rest optional. */
public record FactRequest(Category category, String slot, String text, Double confidence, TaskState taskState) {

    NewFact toFact() {
        return new NewFact(category, slot, text, confidence, taskState);
    }
}

package dev.mnemos.session;

/** Where the agent stands in its flow: a step index and a step name. */
public record StepPointer(int index, String name) {
}

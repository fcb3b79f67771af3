package dev.mnemos.llm;

import io.quarkus.runtime.annotations.Recorder;

import java.util.List;

/**
 * Checks at start-up that the AI services which name {@link MnemosModelSupplier} have a model to call: without one,
 * every call of theirs would fail, so the start fails instead, saying what to add or set.
 */
@Recorder
public class ModelSupplierRecorder {

    /** @param services the class names of the {@code @RegisterAiService} interfaces that name the supplier */
    public void requireModel(List<String> services) {
        if (MnemosModelSupplier.find().isEmpty()) {
            throw new IllegalStateException(MnemosModelSupplier.noModel(services));
        }
    }
}

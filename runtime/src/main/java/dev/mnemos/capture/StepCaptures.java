package dev.mnemos.capture;

import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.StepCapture;
import dev.mnemos.promotion.Markers;
import dev.mnemos.promotion.StatementReader;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The application's {@link StepCapture}: {@link TurnCapture} over the application's languages (promotion's
 * {@link StatementReader}) when the profile layer is there, over the shipped ones otherwise (session memory only);
 * {@link StepCapture#NONE} when {@code quarkus.mnemos.injection.capture.enabled} is false.
 */
@Singleton
public class StepCaptures {

    @Produces
    @Singleton
    @Unremovable
    StepCapture capture(InjectionConfig config, Instance<StatementReader> statements) {
        if (!config.capture().enabled()) {
            return StepCapture.NONE;
        }
        return new TurnCapture(statements.isResolvable() ? statements.get().markers() : Markers.DEFAULT);
    }
}

package dev.mnemos.injection.capture;

import dev.mnemos.promotion.Markers;
import dev.mnemos.promotion.StatementReader;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InstanceHandle;
import org.eclipse.microprofile.config.ConfigProvider;

import java.util.Optional;

/**
 * The application's {@link TurnCapture}: empty when {@code quarkus.mnemos.injection.capture.enabled} is false; else
 * reading the application's languages (promotion's {@link StatementReader}) when the profile layer is there, the
 * shipped ones otherwise. Outside a running application, the shipped languages.
 */
public final class TurnCaptures {

    /** The setting that turns capture off (see {@code InjectionConfig.Capture#enabled}). */
    public static final String ENABLED = "quarkus.mnemos.injection.capture.enabled";

    private TurnCaptures() {
    }

    public static Optional<TurnCapture> configured() {
        ArcContainer container = Arc.container();
        if (container == null) {
            return Optional.of(new TurnCapture(Markers.DEFAULT));
        }
        boolean enabled = ConfigProvider.getConfig().getOptionalValue(ENABLED, Boolean.class).orElse(true);
        if (!enabled) {
            return Optional.empty();
        }
        try (InstanceHandle<StatementReader> reader = container.instance(StatementReader.class)) {
            return Optional.of(new TurnCapture(reader.isAvailable() ? reader.get().markers() : Markers.DEFAULT));
        }
    }
}

package dev.mnemos.server.tracing;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/** The one property that turns tracing on; spans go to {@link InMemorySpans} instead of an OTLP collector. */
public class TracingOn implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.otel.sdk.disabled", "false",
                "quarkus.otel.exporter.otlp.traces.endpoint", "http://127.0.0.1:1",
                "quarkus.otel.bsp.schedule.delay", "10ms");
    }
}

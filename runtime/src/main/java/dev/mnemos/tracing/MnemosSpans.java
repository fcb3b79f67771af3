package dev.mnemos.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * OpenTelemetry spans of the step cycle ({@code mnemos.step} with {@code .load}, {@code .render}, {@code .model},
 * {@code .write}, which stores the step trace too) and of ending a session ({@code mnemos.end} with {@code .promote},
 * {@code .archive}, {@code .clear}). The tracer is the application's when it has the {@code quarkus-opentelemetry}
 * extension (spans are exported only when its SDK is enabled), otherwise a no-op one: tracing costs nothing
 * until it is switched on.
 */
@ApplicationScoped
public class MnemosSpans {

    public static final String SESSION_ID = "mnemos.session.id";
    public static final String STEP = "mnemos.step.name";
    public static final String VERSION = "mnemos.session.version";

    private final Tracer tracer;

    @Inject
    public MnemosSpans(Instance<Tracer> tracers) {
        this(tracers.isResolvable() ? tracers.get() : OpenTelemetry.noop().getTracer("dev.mnemos"));
    }

    private MnemosSpans(Tracer tracer) {
        this.tracer = tracer;
    }

    /** Spans that go nowhere, for code built outside CDI (unit tests). */
    public static MnemosSpans noop() {
        return new MnemosSpans(OpenTelemetry.noop().getTracer("dev.mnemos"));
    }

    /** Starts {@code name} as a child of the current span and makes it current until the scope closes. */
    public Active start(String name, String sessionId) {
        Span span = tracer.spanBuilder(name).setParent(Context.current()).setAttribute(SESSION_ID, sessionId)
                .startSpan();
        return new Active(span, span.makeCurrent());
    }

    /** Runs {@code work} in a span named {@code name}; an exception marks the span as failed. */
    public <T> T in(String name, String sessionId, Supplier<T> work) {
        try (Active active = start(name, sessionId)) {
            try {
                return work.get();
            } catch (RuntimeException e) {
                active.failed(e);
                throw e;
            }
        }
    }

    /** Records a finished phase (measured by the caller) as a child span of the current one. */
    public void phase(String name, String sessionId, Instant start, long nanos) {
        long startNanos = TimeUnit.SECONDS.toNanos(start.getEpochSecond()) + start.getNano();
        tracer.spanBuilder(name).setParent(Context.current()).setAttribute(SESSION_ID, sessionId)
                .setStartTimestamp(startNanos, TimeUnit.NANOSECONDS).startSpan()
                .end(startNanos + nanos, TimeUnit.NANOSECONDS);
    }

    /** A started span, current until {@link #close()}. */
    public record Active(Span span, Scope scope) implements AutoCloseable {

        public Active attribute(String key, String value) {
            span.setAttribute(key, value);
            return this;
        }

        public Active attribute(String key, long value) {
            span.setAttribute(key, value);
            return this;
        }

        public void failed(Throwable e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
        }

        @Override
        public void close() {
            scope.close();
            span.end();
        }
    }
}

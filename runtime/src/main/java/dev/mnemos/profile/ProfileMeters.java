package dev.mnemos.profile;

import dev.mnemos.metrics.Outages;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.function.Supplier;

/**
 * {@code mnemos.profile.writes{operation, outcome=ok|rejected|unavailable}} and
 * {@code mnemos.profile.revision.copy.failures}, with the Postgres and Redis outages they met.
 */
@ApplicationScoped
@Startup
public class ProfileMeters {

    public static final String PROFILE_WRITES = "mnemos.profile.writes";
    private static final String[] OPERATIONS = { "add", "correct", "forget", "instruct", "import", "confirm", "reject" };

    private final MeterRegistry registry;
    private final Outages outages;

    public ProfileMeters(MeterRegistry registry, Outages outages) {
        this.registry = registry;
        this.outages = outages;
        for (String operation : OPERATIONS) {
            for (String outcome : new String[] { "ok", "rejected", "unavailable" }) {
                profileWrites(operation, outcome);
            }
        }
    }

    /** A profile write (add, correct, forget, instruct, import, confirm, reject). */
    public <T> T profileWrite(String operation, Supplier<T> write) {
        try {
            T result = write.get();
            profileWrites(operation, "ok").increment();
            return result;
        } catch (RuntimeException e) {
            boolean down = postgresDown(e);
            profileWrites(operation, down ? "unavailable" : "rejected").increment();
            if (down) {
                outages.postgres();
            }
            throw e;
        }
    }

    /** A profile write committed but its revision's copy in Redis could not be raised (ProfileRevisions). */
    public void revisionCopyFailed() {
        registry.counter("mnemos.profile.revision.copy.failures").increment();
        outages.redis();
    }

    /** Whether a failure means Postgres did not answer (or was busy), not a bug. */
    public static boolean postgresDown(Throwable e) {
        return e instanceof ProfileUnavailableException || ProfileUnavailableException.isTransient(e);
    }

    private Counter profileWrites(String operation, String outcome) {
        return Counter.builder(PROFILE_WRITES).description("profile writes by operation and outcome")
                .tag("operation", operation).tag("outcome", outcome).register(registry);
    }
}

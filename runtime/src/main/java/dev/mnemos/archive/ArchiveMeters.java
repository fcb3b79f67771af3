package dev.mnemos.archive;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

/** {@code mnemos.archive.writes{outcome=ok|failed}}: ended sessions written to the Postgres archive. */
@ApplicationScoped
@Startup
public class ArchiveMeters {

    public static final String ARCHIVE_WRITES = "mnemos.archive.writes";

    private final Counter ok;
    private final Counter failed;

    public ArchiveMeters(MeterRegistry registry) {
        this.ok = archiveWrites(registry, "ok");
        this.failed = archiveWrites(registry, "failed");
    }

    public void written() {
        ok.increment();
    }

    public void failed() {
        failed.increment();
    }

    private static Counter archiveWrites(MeterRegistry registry, String outcome) {
        return Counter.builder(ARCHIVE_WRITES).description("ended sessions written to the Postgres archive")
                .tag("outcome", outcome).register(registry);
    }
}

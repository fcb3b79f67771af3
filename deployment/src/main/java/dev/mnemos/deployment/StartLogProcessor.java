package dev.mnemos.deployment;

import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.logging.LogCleanupFilterBuildItem;

import java.util.logging.Level;

/**
 * Keeps what Mnemos brings into an application from warning about nothing at start-up and on every
 * dev-mode reload.
 */
class StartLogProcessor {

    /**
     * Quarkus' Redis client creates the default Vert.x Redis client twice when both the client and a
     * {@code RedisDataSource} are used (Mnemos uses the data source): once for each, keeping the first. The
     * second one's pool gauges ({@code redis.pool.*}, from Quarkus Micrometer, which Mnemos brings) are
     * refused as duplicates of the first, which is the client in use, with a WARN per start. Only that
     * message is lowered to DEBUG; a duplicate gauge of any other meter still warns.
     */
    @BuildStep
    LogCleanupFilterBuildItem duplicateRedisPoolGauges() {
        return new LogCleanupFilterBuildItem("io.micrometer.core.instrument.MeterRegistry", Level.FINE,
                "This Gauge has been already registered (MeterId{name='redis.pool.");
    }
}

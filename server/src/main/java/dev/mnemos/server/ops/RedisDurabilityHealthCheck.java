package dev.mnemos.server.ops;

import dev.mnemos.session.RedisDurability;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Redis' durability settings in the readiness report ({@code /q/health/ready}). DOWN while Redis runs an
 * evicting {@code maxmemory-policy} and session writes are refused for it (unless
 * {@code quarkus.mnemos.redis.accept-eviction=true}); otherwise UP: a Redis without persistence still serves
 * (a restart loses live sessions, which then answer 404), and whether Redis answers at all is the Redis
 * client's own readiness check. The data says what is at
 * risk; the gauge {@code mnemos.redis.persistence} carries the same for alerts.
 */
@Readiness
@ApplicationScoped
public class RedisDurabilityHealthCheck implements HealthCheck {

    private final RedisDurability durability;

    public RedisDurabilityHealthCheck(RedisDurability durability) {
        this.durability = durability;
    }

    @Override
    public HealthCheckResponse call() {
        RedisDurability.Report report = durability.check();
        return HealthCheckResponse.named("Mnemos session durability (Redis)").status(!durability.refusesWrites(report))
                .withData("appendonly", report.appendonly())
                .withData("appendfsync", report.appendfsync())
                .withData("maxmemory-policy", report.maxmemoryPolicy())
                .withData("sessionsSurviveRestart", report.known() ? Boolean.toString(report.risks().isEmpty())
                        : RedisDurability.UNKNOWN)
                .withData("assessment", report.assessment())
                .withData("writes", durability.refusesWrites(report) ? "refused: maxmemory-policy " + report.maxmemoryPolicy()
                        + " may evict live sessions" : "accepted")
                .build();
    }
}

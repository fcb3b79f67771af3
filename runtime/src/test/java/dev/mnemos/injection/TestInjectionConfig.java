package dev.mnemos.injection;

import java.time.Duration;

/** {@link InjectionConfig} with its defaults, for pure tests. */
public record TestInjectionConfig(int tokenBudget, Duration writeConflictWait,
        SummaryMode summaryMode) implements InjectionConfig {

    public TestInjectionConfig() {
        this(1000, Duration.ofMillis(50), SummaryMode.DETERMINISTIC);
    }

    @Override
    public int plansShown() {
        return 2;
    }

    @Override
    public int maxProfileFacts() {
        return 20;
    }

    @Override
    public long tokenCountCacheChars() {
        return 4_000_000;
    }

    @Override
    public int summaryMaxChars() {
        return 4000;
    }

    @Override
    public ChatWindow chatWindow() {
        return ChatWindow.PER_SERVICE;
    }

    @Override
    public int chatMaxMessages() {
        return 20;
    }

    @Override
    public int traceRetention() {
        return 500;
    }

    @Override
    public Duration profileTimeout() {
        return Duration.ofSeconds(2);
    }

    @Override
    public int profileBreakerRequests() {
        return 20;
    }

    @Override
    public double profileBreakerFailureRatio() {
        return 0.5;
    }

    @Override
    public Duration profileBreakerDelay() {
        return Duration.ofSeconds(5);
    }

    @Override
    public AnonymousAccess anonymousAccess() {
        return AnonymousAccess.OWN_SESSIONS;
    }

    @Override
    public String anonymousUser() {
        return "anonymous";
    }

    @Override
    public Capture capture() {
        return () -> true;
    }
}

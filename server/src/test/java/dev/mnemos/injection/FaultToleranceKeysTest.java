package dev.mnemos.injection;

import dev.mnemos.llm.ExtractionModel;
import dev.mnemos.llm.ExtractionRequest;
import dev.mnemos.llm.ModelConfigured;
import dev.mnemos.llm.ScriptedChatModel;
import dev.mnemos.session.SessionIds;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Mnemos' own fault-tolerance keys take effect: each value below is far from its default. */
@QuarkusTest
@TestProfile(FaultToleranceKeysTest.TightLimits.class)
class FaultToleranceKeysTest {

    /** A configured model (so extraction calls it) and tight profile and model limits. */
    public static class TightLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(new ModelConfigured().getConfigOverrides());
            config.put("quarkus.mnemos.injection.profile-timeout", "200ms");
            config.put("quarkus.mnemos.injection.profile-breaker-requests", "4");
            config.put("quarkus.mnemos.injection.profile-breaker-failure-ratio", "1.0");
            config.put("quarkus.mnemos.injection.profile-breaker-delay", "2s");
            config.put("quarkus.mnemos.llm.timeout", "300ms");
            return config;
        }
    }

    @Inject
    ProfileReader reader;
    @Inject
    ScriptedProfileSource profiles;
    @Inject
    ExtractionModel extraction;
    @Inject
    ScriptedChatModel model;

    @AfterEach
    void tearDown() {
        profiles.failing(false);
        profiles.delay(Duration.ZERO);
        model.reset();
    }

    private String userWithFacts() {
        String user = "u-" + SessionIds.newId();
        profiles.set(user, List.of(new ProfileLine("f1", "DOMAIN", null, "railway engineer", 0.8)));
        return user;
    }

    @Test
    void profileReadSlowerThanTheConfiguredTimeoutIsSkipped() {
        String user = userWithFacts();
        profiles.delay(Duration.ofSeconds(1));

        long start = System.nanoTime();
        ProfileSnapshot slow = reader.load(user);
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(slow.status()).as("1 s is within the 2 s default, not within 200 ms")
                .isEqualTo(ProfileSnapshot.Status.MISSING);
        assertThat(elapsedMs).as("abandoned after the configured 200 ms").isLessThan(900);
        profiles.delay(Duration.ZERO);
        assertThat(reader.load(user).status()).isEqualTo(ProfileSnapshot.Status.LOADED);
    }

    @Test
    void circuitOpensAfterTheConfiguredFailuresAndClosesAfterTheConfiguredDelay() throws InterruptedException {
        String user = userWithFacts();
        profiles.failing(true);
        for (int i = 0; i < 4; i++) {
            assertThat(reader.load(user).status()).isEqualTo(ProfileSnapshot.Status.MISSING);
        }
        profiles.failing(false);
        int reads = profiles.loads();

        assertThat(reader.load(user).status()).as("open after 4 failures (default: 20 requests, half failed)")
                .isEqualTo(ProfileSnapshot.Status.MISSING);
        assertThat(profiles.loads()).as("an open circuit does not touch the profile").isEqualTo(reads);

        Thread.sleep(2_500);
        assertThat(reader.load(user).facts()).as("half-open after 2 s (default 5 s), closed by one success")
                .extracting(ProfileLine::id).containsExactly("f1");
    }

    @Test
    void modelSlowerThanTheConfiguredTimeoutFallsBackToNoAnswer() {
        ExtractionRequest request = new ExtractionRequest(LocalDate.now(), "chat", List.of("I keep bees"));
        model.script(ignored -> "{\"facts\": []}");
        extraction.extract(request); // warm-up: the first call builds the AI service, which may itself take 300 ms
        model.reset();
        model.script(ignored -> {
            try {
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            return "{\"facts\": []}";
        });

        long start = System.nanoTime();
        var answer = extraction.extract(request);
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(answer).as("the 90 s default would have waited for the answer: an explicit empty list").isEmpty();
        assertThat(model.requests()).hasSize(1);
        assertThat(elapsedMs).as("abandoned after the configured 300 ms, before the 5 s answer").isLessThan(4_000);
    }
}

package dev.mnemos.injection;

import dev.mnemos.llm.ExtractionAi;
import dev.mnemos.llm.ExtractionModel;
import dev.mnemos.llm.ExtractionRequest;
import dev.mnemos.session.SessionIds;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.ScriptedProfileSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Mnemos' own fault-tolerance keys take effect: each value below is far from its default. */
class FaultToleranceKeysTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            // a model (so extraction calls it: quarkus.mnemos.llm.enabled is on by default) and tight profile and model limits
            .overrideConfigKey("quarkus.mnemos.injection.profile-timeout", "200ms")
            .overrideConfigKey("quarkus.mnemos.injection.profile-breaker-requests", "4")
            .overrideConfigKey("quarkus.mnemos.injection.profile-breaker-failure-ratio", "1.0")
            .overrideConfigKey("quarkus.mnemos.injection.profile-breaker-delay", "2s")
            .overrideConfigKey("quarkus.mnemos.llm.timeout", "300ms")
            .withApplicationRoot(jar -> jar.addClasses(ScriptedChatModel.class, ScriptedProfileSource.class));

    @Inject
    StepProfiles reader;
    @Inject
    ScriptedProfileSource profiles;
    @Inject
    ExtractionModel extraction;
    @Inject
    ScriptedChatModel model;
    @Inject
    ExtractionAi ai;

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

        ProfileSnapshot slow = reader.load(user);

        // a 1 s read is within the 2 s default: MISSING shows the configured 200 ms applied (no wall-clock check)
        assertThat(slow.status()).as("1 s is within the 2 s default, not within 200 ms")
                .isEqualTo(ProfileSnapshot.Status.MISSING);
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

        // the breaker half-opens after its configured delay (2 s here, 5 s by default): poll for that event rather
        // than sleeping past it; each poll of an open breaker answers MISSING without reading the profile
        ProfileSnapshot snapshot = reader.load(user);
        for (int i = 0; i < 400 && snapshot.status() == ProfileSnapshot.Status.MISSING; i++) {
            assertThat(profiles.loads()).as("an open circuit does not touch the profile").isEqualTo(reads);
            Thread.sleep(25);
            snapshot = reader.load(user);
        }
        assertThat(snapshot.facts()).as("half-open after the configured delay, closed by one success")
                .extracting(ProfileLine::id).containsExactly("f1");
        assertThat(profiles.loads()).as("one trial read closed the circuit").isEqualTo(reads + 1);
    }

    @Test
    void modelSlowerThanTheConfiguredTimeoutFallsBackToNoAnswerAndLeavesTheCallerUninterrupted() {
        ExtractionRequest request = new ExtractionRequest(LocalDate.now(), "chat", List.of("I keep bees"));
        // warm-up without the 300 ms guard: the first call builds the AI service and loads its classes, which
        // on a slow machine takes longer than the timeout; the timeout's interrupt would then reach the thread
        // while it reads a jar, and an interrupted channel closes for good (every later class load fails)
        model.script(ignored -> "{\"facts\": []}");
        ai.extract("I keep bees");
        // the failure path too: the timed-out call below runs it while its thread is interrupted
        model.script(ignored -> {
            throw new IllegalStateException("scripted failure");
        });
        assertThatThrownBy(() -> ai.extract("I keep bees")).isInstanceOf(RuntimeException.class);
        assertThat(extraction.extract(request)).as("a failing model falls back").isEmpty();
        model.reset();
        model.script(ignored -> {
            try {
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
                // what a well-behaved blocking client does when it gives up: it restores the flag
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
            return "{\"facts\": []}";
        });

        var answer = extraction.extract(request);
        boolean interrupted = Thread.interrupted();

        // Optional.empty is the fallback; the 90 s default would have waited for the answer: Optional.of(empty list)
        assertThat(answer).as("the 90 s default would have waited for the answer: an explicit empty list").isEmpty();
        assertThat(model.requests()).hasSize(1);
        assertThat(interrupted)
                .as("the timeout's interrupt of the calling thread is cleared (SmallRye does it for a synchronous guard)")
                .isFalse();
    }
}

package org.acme.trips;

import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Model calls made off any HTTP request, in an application that mounts Mnemos' REST API: Mnemos'
 * request-body check belongs to its own server endpoints and never runs on the application's model
 * client.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
@TestProfile(MnemosRestEnabledTest.RestEnabled.class)
class ModelCallsOffRequestTest {

    @Inject
    TripPlanner planner;
    @Inject
    BackgroundQuestions background;
    @Inject
    SessionStore sessions;

    private static String freshId() {
        return "trip-" + UUID.randomUUID();
    }

    @Test
    void callsFromAPlainThreadPoolAreAnsweredAndWritten() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<String> ids = new ArrayList<>();
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String id = freshId();
                ids.add(id);
                answers.add(pool.submit(() -> planner.suggest(id, "Two days in Évora")));
            }
            for (Future<String> answer : answers) {
                assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo(OpenAiStub.ANSWER);
            }
            for (String id : ids) {
                SessionState state = sessions.get(id);
                assertThat(state.version()).isEqualTo(2);
                assertThat(state.collected()).containsEntry("answer.suggest", OpenAiStub.ANSWER);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aScheduledJobsCallIsAnsweredAndWritten() throws Exception {
        String id = freshId();
        String answer = background.ask(id, "A day in Sintra").toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertThat(answer).isEqualTo(OpenAiStub.ANSWER);
        assertThat(sessions.get(id).version()).isEqualTo(2);
        assertThat(sessions.get(id).collected()).containsEntry("answer.suggest", OpenAiStub.ANSWER);
    }
}

package org.acme.trips;

import dev.mnemos.injection.ActingAs;
import dev.mnemos.injection.ActingUserUnknownException;
import dev.mnemos.session.SessionNotFoundException;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Model calls made off any HTTP request, in an application that mounts Mnemos' REST API (and so authenticates its
 * callers): each names who it acts for ({@link ActingAs}), and Mnemos' request-body check belongs to its own server
 * endpoints and never runs on the application's model client.
 */
@QuarkusTest
@QuarkusTestResource(OpenAiStub.class)
@TestProfile(MnemosRestEnabledTest.RestEnabled.class)
class ModelCallsOffRequestTest {

    private static final String TRAVELLER = "traveller-" + UUID.randomUUID();

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
                answers.add(pool.submit(() -> ActingAs.user(TRAVELLER).call(() -> planner.suggest(id, "Two days in Évora"))));
            }
            for (Future<String> answer : answers) {
                assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo(OpenAiStub.ANSWER);
            }
            for (String id : ids) {
                SessionState state = sessions.get(id);
                assertThat(state.version()).isEqualTo(2);
                assertThat(state.userId()).isEqualTo(TRAVELLER);
                assertThat(state.collected()).containsEntry("answer.suggest", OpenAiStub.ANSWER);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aPoolCallThatNamesNoOneIsRefusedBeforeTheModelIsCalled() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            String id = freshId();
            int modelCalls = OpenAiStub.bodies().size();
            Future<String> answer = pool.submit(() -> planner.suggest(id, "A day in Tomar"));
            assertThatThrownBy(() -> answer.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(ActingUserUnknownException.class)
                    .hasMessageContaining("TripPlanner#suggest");
            assertThat(OpenAiStub.bodies()).hasSize(modelCalls);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theSystemActorReachesAUsersSessionButStartsNone() {
        String id = freshId();
        ActingAs.user(TRAVELLER).call(() -> planner.suggest(id, "A day in Óbidos"));

        assertThat(ActingAs.system("test: the nightly digest").call(() -> planner.suggest(id, "and the evening?")))
                .isEqualTo(OpenAiStub.ANSWER);
        assertThat(sessions.get(id).version()).isEqualTo(3);
        assertThat(sessions.get(id).userId()).isEqualTo(TRAVELLER);

        String fresh = freshId();
        assertThatThrownBy(() -> ActingAs.system("test: the nightly digest").call(() -> planner.suggest(fresh, "hi")))
                .isInstanceOf(SessionNotFoundException.class);
    }

    @Test
    void aScheduledJobsCallIsAnsweredAndWritten() throws Exception {
        String id = freshId();
        String answer = background.ask(TRAVELLER, id, "A day in Sintra").toCompletableFuture().get(30, TimeUnit.SECONDS);

        assertThat(answer).isEqualTo(OpenAiStub.ANSWER);
        assertThat(sessions.get(id).version()).isEqualTo(2);
        assertThat(sessions.get(id).userId()).isEqualTo(TRAVELLER);
        assertThat(sessions.get(id).collected()).containsEntry("answer.suggest", OpenAiStub.ANSWER);
    }
}

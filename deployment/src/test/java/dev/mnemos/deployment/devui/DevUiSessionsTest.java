package dev.mnemos.deployment.devui;

import dev.mnemos.deployment.RecordingChatModel;
import dev.mnemos.devmode.DevUserMechanism;
import dev.mnemos.devmode.DevUsersResource;
import dev.mnemos.devmode.devui.LiveSession;
import dev.mnemos.devmode.devui.MnemosDevUiService;
import dev.mnemos.devmode.devui.TraceLine;
import dev.mnemos.session.InvalidPatchException;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The service behind the Dev UI's "Sessions and traces" page, in an application with Mnemos' dev-mode tools and the
 * REST API off: it lists users, a user's live sessions and the newest traces across them, read from the stores.
 */
class DevUiSessionsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(DevAssistant.class, RecordingChatModel.class, DevTools.class))
            .withConfigurationResource("mnemos-test.properties")
            // SmallRye JWT is on this module's test class path for DevInspectorJwtTest
            .overrideConfigKey("quarkus.smallrye-jwt.enabled", "false")
            .overrideConfigKey("quarkus.arc.unremovable-types", RecordingChatModel.class.getName())
            .addBuildChainCustomizer(DevTools.builtIn());

    @Inject
    MnemosDevUiService service;
    @Inject
    SessionStore sessions;
    @Inject
    DevAssistant assistant;

    @Test
    void listsTheUserAndTheirLiveSessions() {
        // the list is the first users in sort order: this one sorts before what other tests leave in Redis
        String user = "000-devui-" + UUID.randomUUID();
        String kyoto = sessionWithSteps(user, "A dev-mode trip to Kyoto", 1);
        String osaka = sessionWithSteps(user, "A dev-mode trip to Osaka", 2);

        assertThat(service.users()).contains(user);
        List<LiveSession> live = service.sessions(user);
        assertThat(live).extracting(LiveSession::sessionId).containsExactly(osaka, kyoto);
        assertThat(live).extracting(LiveSession::goal).containsExactly("A dev-mode trip to Osaka",
                "A dev-mode trip to Kyoto");
        assertThat(live).extracting(LiveSession::version).containsExactly(3L, 2L);
    }

    @Test
    void latestTracesSpanTheUsersSessionsNewestFirst() {
        String user = "devui-" + UUID.randomUUID();
        String kyoto = sessionWithSteps(user, "A dev-mode trip to Kyoto", 2);
        String osaka = sessionWithSteps(user, "A dev-mode trip to Osaka", 1);

        List<TraceLine> traces = service.latestTraces(user, 10);
        assertThat(traces).extracting(t -> t.sessionId() + "@" + t.version()).containsExactly(osaka + "@2",
                kyoto + "@3", kyoto + "@2");
        assertThat(traces).extracting(TraceLine::step).containsOnly("advise");
        assertThat(traces.get(0).block()).contains("A dev-mode trip to Osaka");
        assertThat(traces.get(0).readVersion()).isEqualTo(1L);
        assertThat(traces.get(0).tokens()).isPositive().isLessThanOrEqualTo(traces.get(0).budget());
        assertThat(traces.get(0).tools()).as("recorded: the model call ran none").isEmpty();
        assertThat(service.latestTraces(user, 2)).extracting(TraceLine::version).containsExactly(2L, 3L);
    }

    @Test
    void anotherUsersSessionsAreNotMixedIn() {
        String user = "devui-" + UUID.randomUUID();
        sessionWithSteps("devui-" + UUID.randomUUID(), "Someone else's trip", 1);

        assertThat(service.sessions(user)).isEmpty();
        assertThat(service.latestTraces(user, 10)).isEmpty();
    }

    @Test
    void aUserIdOutsideTheGrammarIsRefused() {
        assertThatThrownBy(() -> service.sessions("no spaces allowed")).isInstanceOf(InvalidPatchException.class);
    }

    @Test
    void withTheApiOffThereIsNoUserSwitch() {
        assertThat(Arc.container().select(DevUserMechanism.class).isResolvable()).isFalse();
        assertThat(Arc.container().select(DevUsersResource.class).isResolvable()).isFalse();
    }

    /** Starts a session and plays {@code steps} AI steps in it, off the test's thread as a background job would. */
    private String sessionWithSteps(String user, String goal, int steps) {
        return CompletableFuture.supplyAsync(() -> {
            String sessionId = sessions.create(NewSession.of(user, SessionPatch.builder().goal(goal).build()).by(user))
                    .sessionId();
            for (int i = 0; i < steps; i++) {
                assistant.advise(sessionId, "When should I go?");
            }
            return sessionId;
        }).join();
    }
}

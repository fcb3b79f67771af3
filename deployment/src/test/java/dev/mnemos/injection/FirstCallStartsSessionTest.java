package dev.mnemos.injection;

import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mnemos.promotion.PromotionService;
import dev.mnemos.session.InvalidPatchException;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionEndedException;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.support.JtokkitTokenizer;
import dev.mnemos.support.Requests;
import dev.mnemos.support.RestApi;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.Tokens;
import dev.mnemos.testsupport.TripAi;
import dev.mnemos.testsupport.TripChatResource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The first call with a {@code @MemoryId} that names no session starts it, owned by the caller; in this application,
 * which authenticates its callers, a call off any request names its user or is refused.
 */
class FirstCallStartsSessionTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            // the server's setting: Mnemos' extraction, reconcile and summaries take their deterministic paths
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false"),
            jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class,
                    JtokkitTokenizer.class, TripChatResource.class, Requests.class));

    private static final int THREADS = 8;
    /** The user the calls made off any request name ({@link ActingAs}). */
    private static final String OWNER = "owner-first-call";

    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;
    @Inject
    SessionStore store;
    @Inject
    StepTraceStore traces;
    @Inject
    PromotionService promotion;

    @BeforeEach
    void setUp() {
        model.reset();
        model.script(request -> "fine");
    }

    private static String freshId() {
        return "first-" + SessionIds.newId();
    }

    private static ValidatableResponse chat(String token, String sessionId, String message) {
        return given().auth().oauth2(token).contentType(ContentType.TEXT).body(message)
                .post("/test/trip-chat/{id}", sessionId).then();
    }

    @Test
    void firstCallOfAnAuthenticatedCallerStartsTheSessionOwnedByTheTokensSubject() {
        String alice = "alice-" + SessionIds.newId();
        String id = freshId();
        // upn and preferred_username name someone else: the owner is the token's subject
        chat(Tokens.userWithUpn(alice, "mallory"), id, "hello").statusCode(200);

        SessionState after = store.get(id);
        assertThat(after.sessionId()).isEqualTo(id);
        assertThat(after.userId()).isEqualTo(alice);
        assertThat(after.version()).isEqualTo(2);
        assertThat(after.collected()).containsEntry("answer.chat", "fine");
        assertThat(store.liveSessions(alice)).containsExactly(id);
        assertThat(store.events(id, 1, 10)).extracting(SessionEvent::type)
                .containsExactly(SessionEvent.Type.CREATE, SessionEvent.Type.PATCH);
        assertThat(Requests.system(model.requests().get(0))).contains("version 1");

        chat(Tokens.user(alice), id, "and then?").statusCode(200);
        assertThat(store.get(id).version()).isEqualTo(3);
    }

    @Test
    void firstCallOffAnyRequestIsRefusedAndStartsNothing() {
        String id = freshId();
        assertThatThrownBy(() -> ai.chat(id, "hello")).isInstanceOf(ActingUserUnknownException.class)
                .hasMessageContaining("ActingAs.user");
        assertThatThrownBy(() -> store.get(id)).isInstanceOf(SessionNotFoundException.class);
        assertThat(model.requests()).isEmpty();
    }

    @Test
    void firstCallOffAnyRequestThatNamesItsUserStartsTheSessionOwnedByThem() {
        String id = freshId();
        String carol = "carol-" + SessionIds.newId();
        assertThat(ActingAs.user(carol).call(() -> ai.chat(id, "hello"))).isEqualTo("fine");
        SessionState after = store.get(id);
        assertThat(after.userId()).isEqualTo(carol);
        assertThat(after.version()).isEqualTo(2);
        assertThat(traces.find(id, 2).orElseThrow().read().sessionVersion()).isEqualTo(1);
    }

    @Test
    void theSystemActorStartsNoSession() {
        String id = freshId();
        assertThatThrownBy(() -> ActingAs.system("test").call(() -> ai.chat(id, "hello")))
                .isInstanceOf(SessionNotFoundException.class);
        assertThatThrownBy(() -> store.get(id)).isInstanceOf(SessionNotFoundException.class);
        assertThat(model.requests()).isEmpty();
    }

    @Test
    void aSessionOfAnotherUserIsStillNotFoundAndNeitherTakenOverNorChanged() {
        String alice = "alice-" + SessionIds.newId();
        String bob = "bob-" + SessionIds.newId();
        String started = freshId();
        chat(Tokens.user(alice), started, "hello").statusCode(200);
        String created = store.create(NewSession.of(alice, SessionPatch.builder().goal("alice's trip").build()).by("test"))
                .sessionId();
        model.reset();
        model.script(request -> "fine");

        for (String id : List.of(started, created)) {
            SessionState before = store.get(id);
            chat(Tokens.user(bob), id, "mine now").statusCode(404);
            assertThat(store.get(id)).isEqualTo(before);
        }
        assertThat(model.requests()).isEmpty();
        assertThat(store.liveSessions(bob)).isEmpty();
    }

    @Test
    void malformedIdIsRefusedAndNothingIsCreated() {
        assertThatThrownBy(() -> ActingAs.user("dave").call(() -> ai.chat("no spaces allowed", "hello")))
                .isInstanceOfSatisfying(InvalidPatchException.class, e -> assertThat(e.field()).isEqualTo("sessionId"));
        assertThat(model.requests()).isEmpty();
    }

    @Test
    void concurrentFirstCallsCreateTheSessionOnceAndEveryStepIsWritten() throws Exception {
        String id = freshId();
        // every call waits in the model until all have loaded the session (so each read the newly created
        // version 1, whatever the machine's load); then thread n answers after n * 150 ms, so every
        // write-back needs at most one re-read
        ThreadLocal<Integer> thread = new ThreadLocal<>();
        CountDownLatch loaded = new CountDownLatch(THREADS);
        Function<ChatRequest, String> staggered = request -> {
            loaded.countDown();
            try {
                assertThat(loaded.await(1, TimeUnit.MINUTES)).as("all calls reached the model").isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(thread.get() * 150L);
            return "ok";
        };
        model.script(staggered);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<String>> calls = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int n = t;
            calls.add(pool.submit(() -> {
                thread.set(n);
                start.await();
                return ActingAs.user(OWNER).call(() -> ai.note(id, "t" + n));
            }));
        }
        start.countDown();
        for (Future<String> call : calls) {
            assertThat(call.get(1, TimeUnit.MINUTES)).isEqualTo("ok");
        }
        pool.shutdown();

        SessionState after = store.get(id);
        assertThat(after.userId()).isEqualTo(OWNER);
        assertThat(after.version()).isEqualTo(1L + THREADS);
        for (int t = 0; t < THREADS; t++) {
            assertThat(after.collected()).containsEntry("m.t" + t, "ok");
        }
        List<SessionEvent> events = store.events(id, 1, 100);
        assertThat(events).filteredOn(e -> e.type() == SessionEvent.Type.CREATE).hasSize(1);
        assertThat(events).filteredOn(e -> e.type() == SessionEvent.Type.PATCH).hasSize(THREADS);
        assertThat(traces.all(id)).hasSize(THREADS)
                .allSatisfy(
                        trace -> assertThat(trace.read().sessionVersion()).as("every call read the new session").isEqualTo(1));
        assertThat(store.liveSessions(OWNER)).contains(id);
    }

    @Test
    void concurrentFirstCallsOfDifferentUsersOnOneNewIdLetOneOwnItAndRefuseTheOthers() throws Exception {
        String id = freshId();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<String> users = new ArrayList<>();
        List<Future<Integer>> calls = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            String user = "u" + t + "-" + SessionIds.newId();
            String token = Tokens.user(user);
            users.add(user);
            calls.add(pool.submit(() -> {
                start.await();
                return chat(token, id, "hello").extract().statusCode();
            }));
        }
        start.countDown();
        List<Integer> statuses = new ArrayList<>();
        for (Future<Integer> call : calls) {
            statuses.add(call.get(1, TimeUnit.MINUTES));
        }
        pool.shutdown();

        assertThat(statuses).containsOnly(200, 404).filteredOn(s -> s == 200).hasSize(1);
        SessionState after = store.get(id);
        assertThat(after.userId()).isEqualTo(users.get(statuses.indexOf(200)));
        assertThat(after.version()).isEqualTo(2);
        assertThat(model.requests()).hasSize(1);
    }

    @Test
    void concurrentCreateIfAbsentOfOneIdCreatesItOnceForOneOwner() throws Exception {
        String id = freshId();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Optional<SessionState>>> calls = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            String owner = "u" + t + "-" + id;
            calls.add(pool.submit(() -> {
                start.await();
                return store.createIfAbsent(id,
                        NewSession.of(owner, SessionPatch.builder().goal("by " + owner).build()).by("test"));
            }));
        }
        start.countDown();
        List<SessionState> created = new ArrayList<>();
        for (Future<Optional<SessionState>> call : calls) {
            call.get(1, TimeUnit.MINUTES).ifPresent(created::add);
        }
        pool.shutdown();

        assertThat(created).hasSize(1);
        SessionState now = store.get(id);
        assertThat(now).isEqualTo(created.get(0));
        assertThat(now.goal()).isEqualTo("by " + now.userId());
        assertThat(store.events(id, 1, 10)).hasSize(1);
    }

    @Test
    void anEndedSessionStaysEndedAndIsNotStartedAgain() {
        String live = freshId();
        ActingAs.user(OWNER).call(() -> ai.chat(live, "hello"));
        store.end(live, "test");
        assertThatThrownBy(() -> ActingAs.user(OWNER).call(() -> ai.chat(live, "again")))
                .isInstanceOf(SessionEndedException.class);
        assertThat(store.get(live).version()).isEqualTo(3);

        String archived = freshId();
        ActingAs.user(OWNER).call(() -> ai.chat(archived, "hello"));
        promotion.end(archived, "test");
        assertThatThrownBy(() -> store.get(archived)).isInstanceOf(SessionNotFoundException.class);
        int requests = model.requests().size();

        assertThatThrownBy(() -> ActingAs.user(OWNER).call(() -> ai.chat(archived, "again")))
                .isInstanceOf(SessionEndedException.class);
        assertThatThrownBy(() -> store.get(archived)).as("not started again").isInstanceOf(SessionNotFoundException.class);
        assertThat(model.requests()).hasSize(requests);
        // another user learns nothing about the archived session
        chat(Tokens.user("bob-" + SessionIds.newId()), archived, "hi").statusCode(404);
        assertThatThrownBy(() -> store.get(archived)).isInstanceOf(SessionNotFoundException.class);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

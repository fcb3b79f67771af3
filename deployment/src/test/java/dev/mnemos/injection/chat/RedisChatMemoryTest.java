package dev.mnemos.injection.chat;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.MemoryContext;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionConfig;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.support.JtokkitTokenizer;
import dev.mnemos.support.RequestScopedTripAi;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** A session's chat history in Redis: it outlives the request and the process, and keeps its window. */
class RedisChatMemoryTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            // the server's setting: Mnemos' extraction, reconcile and summaries take their deterministic paths
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false")
            .withApplicationRoot(jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class,
                    ScriptedChatModel.class, JtokkitTokenizer.class, RequestScopedTripAi.class));

    @Inject
    RequestScopedTripAi requestScoped;
    @Inject
    TripAi applicationScoped;
    @Inject
    ScriptedChatModel model;
    @Inject
    SessionStore store;
    @Inject
    RedisChatMemoryStore chatStore;
    @Inject
    InjectionConfig config;
    @Inject
    SessionConfig sessionConfig;
    @Inject
    RedisDataSource redis;

    @BeforeEach
    void setUp() {
        model.reset();
        model.script(request -> "answer " + model.requests().size());
    }

    private String session() {
        return store.create(NewSession.of("u-" + SessionIds.newId(), SessionPatch.builder().goal("trip").build()).by("test"))
                .sessionId();
    }

    private static <T> T inRequest(Supplier<T> work) {
        ManagedContext context = Arc.container().requestContext();
        context.activate();
        try {
            return work.get();
        } finally {
            context.terminate();
        }
    }

    @Test
    void historyOfARequestScopedServiceSurvivesTheEndOfTheRequest() {
        String id = session();
        inRequest(() -> requestScoped.chat(id, "first message"));

        assertThat(redis.key().exists(SessionKeys.chat(id))).isTrue();
        assertThat(redis.key().pttl(SessionKeys.chat(id))).isPositive().isLessThanOrEqualTo(sessionConfig.ttl().toMillis());

        inRequest(() -> requestScoped.chat(id, "second message"));
        List<ChatMessage> sent = model.requests().get(1).messages();
        assertThat(sent).contains(UserMessage.from("first message"), AiMessage.from("answer 1"));
        assertThat(sent.get(sent.size() - 1)).isEqualTo(UserMessage.from("second message"));
    }

    @Test
    void historyIsReadBackByAFreshProviderAsAfterARestart() {
        String id = session();
        applicationScoped.chat(id, "remember the cherry blossoms");

        MemoryContext steps = new MemoryContext();
        List<ChatMessage> restored;
        try (MemoryContext.Scope ignored = steps.enter(
                new MemoryContext.ActiveStep(id, "u", 1, null, TripAi.class.getName()))) {
            restored = new SessionChatMemoryProvider(chatStore, config, steps).get(id).messages();
        }
        assertThat(restored).contains(UserMessage.from("remember the cherry blossoms"), AiMessage.from("answer 1"));
        // the service's turns are in its own window, not in the session's shared one
        assertThat(new SessionChatMemoryProvider(chatStore, config).get(id).messages()).isEmpty();
    }

    @Test
    void evictingTheMemoryInProcessKeepsTheStoredHistory() {
        String id = SessionIds.newId();
        var memory = new SessionChatMemoryProvider(chatStore, config).get(id);
        memory.add(UserMessage.from("hello"));
        memory.clear();
        assertThat(chatStore.getMessages(id)).containsExactly(UserMessage.from("hello"));

        chatStore.deleteMessages(id);
        assertThat(redis.key().exists(SessionKeys.chat(id))).isFalse();
        assertThat(chatStore.getMessages(id)).isEmpty();
    }

    @Test
    void textRoundTripsExactly() {
        String id = SessionIds.newId();
        List<ChatMessage> messages = List.of(UserMessage.from("规划京都之旅 😀 עברית \"quoted\"\nnew line \\ back"),
                AiMessage.from("好的 🚄"));
        chatStore.updateMessages(id, messages);
        assertThat(chatStore.getMessages(id)).isEqualTo(messages);
        chatStore.deleteMessages(id);
    }

    @Test
    void memoryIdsThatAreNotSessionsStayInProcess() {
        var provider = new SessionChatMemoryProvider(chatStore, config);
        provider.get("default").add(UserMessage.from("not for redis"));
        provider.get(new Object()).add(UserMessage.from("not for redis either"));
        assertThat(redis.key().exists(SessionKeys.chat("default"))).isFalse();
        assertThat(SessionChatMemoryProvider.isSessionId(SessionIds.newId())).isTrue();
    }

    @Test
    void windowKeepsTheNewestMessagesOnly() {
        String id = SessionIds.newId();
        var memory = new SessionChatMemoryProvider(chatStore, config).get(id);
        for (int i = 0; i < config.chatMaxMessages() + 5; i++) {
            memory.add(UserMessage.from("m" + i));
        }
        List<ChatMessage> stored = chatStore.getMessages(id);
        assertThat(stored).hasSize(config.chatMaxMessages());
        assertThat(stored.get(stored.size() - 1)).isEqualTo(UserMessage.from("m" + (config.chatMaxMessages() + 4)));
        chatStore.deleteMessages(id);
    }
}

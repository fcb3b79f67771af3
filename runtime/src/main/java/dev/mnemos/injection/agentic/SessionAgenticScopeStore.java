package dev.mnemos.injection.agentic;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.langchain4j.agentic.scope.AgentInvocation;
import dev.langchain4j.agentic.scope.AgenticScope;
import dev.langchain4j.agentic.scope.AgenticScopeKey;
import dev.langchain4j.agentic.scope.AgenticScopeSerializer;
import dev.langchain4j.agentic.scope.AgenticScopeStore;
import dev.langchain4j.agentic.scope.DefaultAgenticScope;
import dev.mnemos.injection.ActingUser;
import dev.mnemos.injection.SessionMemory;
import dev.mnemos.injection.block.MemoryBlockRenderer;
import dev.mnemos.injection.chat.SessionChatMemoryProvider;
import dev.mnemos.injection.step.StepThread;
import dev.mnemos.session.InvalidPatchException;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.StepWrite;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * LangChain4j agentic's persistence SPI backed by the sessions: the {@code AgenticScope} of a workflow whose memory id
 * is a session id is kept in that session, as JSON under {@code collected["_mnemos.agentic.<workflow>"]} (hidden from
 * the memory block). Every save is one versioned write of the session, so the scope has the session's history:
 * rolling the session back rolls the scope back, and a fork carries the scope as it was at the forked version (loaded
 * under the fork's id). A session that does not exist yet is started by the first save, owned like one started by a
 * step (by the user the call acts for, {@link ActingUser.Actor#owner()}).
 * <p>
 * Scopes without a memory id (ephemeral, one call long) and memory ids that are not session ids are not stored, nor are
 * the scopes of workflows annotated {@code @WorkflowScope(CALL)}: their calls neither read nor write the session for
 * the scope. A scope whose JSON is longer than the session's longest collected value
 * ({@code quarkus.mnemos.session.max-text-chars}) is refused and logged; the workflow runs on, and its next call starts
 * from the last scope stored.
 * <p>
 * A workflow Mnemos does not listen to (built with {@code AgenticServices} builders and not passed to
 * {@link AgentSteps#attach}) whose agents include a {@code @SessionMemory} agent is refused with an
 * {@link IllegalStateException} naming the workflow, the agent and the fix, which fails the workflow's call: before
 * that agent's model call ({@link UnattachedWorkflows}, which asks {@link #unattachedWorkflow} which workflow a scope
 * belongs to), else at the scope's first save after the agent ran.
 */
@ApplicationScoped
public class SessionAgenticScopeStore implements AgenticScopeStore {

    private static final Logger LOG = Logger.getLogger(SessionAgenticScopeStore.class);
    /** The collected key prefix of stored scopes; reserved, so the memory block does not show them. */
    public static final String KEY_PREFIX = MemoryBlockRenderer.RESERVED_PREFIX + "agentic.";
    static final String ACTOR = "mnemos-agentic";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SessionStore store;
    private final ActingUser actingUser;
    /** Where each workflow (by class name, LangChain4j agentic's agent id of its scopes) keeps its scope. */
    private final Map<String, WorkflowScope.Kept> kept = new ConcurrentHashMap<>();
    /** The workflows whose agents {@link AgentSteps} listens to. */
    private final Set<String> attached = ConcurrentHashMap.newKeySet();
    /** The workflow (class name) of each session scope saved or loaded here, while the scope is in use. */
    private final Cache<AgenticScope, String> workflows = Caffeine.newBuilder().weakKeys().executor(Runnable::run)
            .build();
    /** The scope ids of the builder workflows called on this thread, innermost first ({@link #enter}). */
    private static final StepThread.Slot<Deque<String>> CURRENT = StepThread.slot();
    /** Memory ids of the persistent scopes saved or loaded here: the workflows that run on a session. */
    private final Cache<Object, Boolean> persistent = Caffeine.newBuilder().maximumSize(100_000)
            .expireAfterAccess(Duration.ofHours(12)).executor(Runnable::run).build();

    public SessionAgenticScopeStore(SessionStore store, ActingUser actingUser) {
        this.store = store;
        this.actingUser = actingUser;
    }

    /** The collected key a workflow's scope is kept under. */
    public static String key(String agentId) {
        return KEY_PREFIX + agentId.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
    }

    /** Whether {@code memoryId} names a persistent scope this store keeps in its session (not an ephemeral one). */
    public boolean holds(Object memoryId) {
        return memoryId != null && persistent.getIfPresent(memoryId) != null;
    }

    /** Records that {@link AgentSteps} listens to the agents of the workflow whose scopes are kept as {@code scopeId}. */
    void attached(String scopeId) {
        attached.add(scopeId);
    }

    /**
     * Makes {@code scopeId} (a builder workflow's, {@link BuilderWorkflows}) the id the scopes of its interface are kept
     * under on this thread, until closed: the workflow's call runs in between.
     */
    Current enter(String scopeId) {
        Deque<String> ids = CURRENT.get();
        if (ids == null) {
            ids = new ArrayDeque<>();
            CURRENT.set(ids);
        }
        ids.push(scopeId);
        Deque<String> entered = ids;
        return () -> {
            entered.pop();
            if (entered.isEmpty()) {
                CURRENT.remove();
            }
        };
    }

    /** A builder workflow's call in progress on this thread ({@link #enter}). */
    interface Current extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * The id the scope of {@code key} is kept under: the current builder workflow's when it is of the key's interface
     * ({@link #enter}), else the interface's, LangChain4j agentic's agent id of root scopes.
     */
    private String agentId(AgenticScopeKey key) {
        Deque<String> ids = CURRENT.get();
        String scopeId = ids == null ? null : ids.peek();
        return scopeId != null && scopeId.startsWith(key.agentId() + "#") ? scopeId : key.agentId();
    }

    @Override
    public boolean save(AgenticScopeKey key, DefaultAgenticScope agenticScope) {
        if (!SessionChatMemoryProvider.isSessionId(key.memoryId())) {
            return false;
        }
        String agentId = agentId(key);
        workflows.put(agenticScope, agentId);
        refuseUnattached(agentId, agenticScope);
        if (keptFor(agentId) == WorkflowScope.Kept.CALL) {
            persistent.put(key.memoryId(), Boolean.TRUE);
            return true;
        }
        String json = AgenticScopeSerializer.toJson(agenticScope);
        if (!isPersistent(json)) {
            return false;
        }
        persistent.put(key.memoryId(), Boolean.TRUE);
        String sessionId = (String) key.memoryId();
        SessionPatch patch = SessionPatch.builder().putCollected(key(agentId), json).build();
        try {
            write(sessionId, patch, "agentic scope " + agentId);
            return true;
        } catch (InvalidPatchException e) {
            LOG.warnf("the agentic scope of %s in session %s was not stored: %s", agentId, sessionId, e.getMessage());
            return false;
        }
    }

    @Override
    public Optional<DefaultAgenticScope> load(AgenticScopeKey key) {
        String agentId = agentId(key);
        if (!SessionChatMemoryProvider.isSessionId(key.memoryId()) || keptFor(agentId) == WorkflowScope.Kept.CALL) {
            return Optional.empty();
        }
        String sessionId = (String) key.memoryId();
        Optional<String> json = stored(sessionId, agentId);
        json.ifPresent(found -> persistent.put(key.memoryId(), Boolean.TRUE));
        Optional<DefaultAgenticScope> scope = json.map(found -> AgenticScopeSerializer.fromJson(underId(found, sessionId)));
        scope.ifPresent(loaded -> workflows.put(loaded, agentId));
        return scope;
    }

    @Override
    public boolean delete(AgenticScopeKey key) {
        String agentId = agentId(key);
        if (!SessionChatMemoryProvider.isSessionId(key.memoryId()) || keptFor(agentId) == WorkflowScope.Kept.CALL) {
            return false;
        }
        String sessionId = (String) key.memoryId();
        if (stored(sessionId, agentId).isEmpty()) {
            return false;
        }
        write(sessionId, SessionPatch.builder().removeCollected(key(agentId)).build(),
                "agentic scope " + agentId + " evicted");
        return true;
    }

    /** The keys of the scopes this process saved or loaded and whose sessions still hold them. */
    @Override
    public Set<AgenticScopeKey> getAllKeys() {
        return persistent.asMap().keySet().stream().map(String.class::cast).flatMap(sessionId -> {
            try {
                return store.get(sessionId).collected().keySet().stream().filter(k -> k.startsWith(KEY_PREFIX))
                        .map(k -> new AgenticScopeKey(k.substring(KEY_PREFIX.length()), sessionId));
            } catch (SessionNotFoundException e) {
                return Stream.<AgenticScopeKey> empty();
            }
        }).collect(Collectors.toSet());
    }

    private Optional<String> stored(String sessionId, String agentId) {
        try {
            SessionState state = store.get(sessionId);
            if (actingUser.restrictedTo().filter(user -> !user.equals(state.userId())).isPresent()) {
                return Optional.empty();
            }
            return Optional.ofNullable(state.collected().get(key(agentId)));
        } catch (SessionNotFoundException e) {
            return Optional.empty();
        }
    }

    /** One versioned write on whatever is current; starts the session when it does not exist yet. */
    private void write(String sessionId, SessionPatch patch, String note) {
        ActingUser.Actor actor = actingUser.actor();
        String owner = actor.restrictedTo().orElse(null);
        try {
            store.apply(StepWrite.of(sessionId, patch).ownedBy(owner).noting(note).by(ACTOR));
            return;
        } catch (SessionNotFoundException e) {
            // a workflow's first save: its session starts here, unless a concurrent call started it
        }
        String creator = actor.owner().orElseThrow(() -> new SessionNotFoundException(sessionId));
        if (store.createIfAbsent(sessionId, NewSession.of(creator, patch).by(ACTOR)).isEmpty()) {
            store.apply(StepWrite.of(sessionId, patch).ownedBy(owner).noting(note).by(ACTOR));
        }
    }

    /**
     * Where the workflow of id {@code agentId} (its class name, followed by {@code #…} for a builder workflow) keeps its
     * scope: {@link WorkflowScope} on its class, else in the session.
     */
    WorkflowScope.Kept keptFor(String agentId) {
        return kept.computeIfAbsent(agentId.split("#", 2)[0], id -> {
            try {
                WorkflowScope annotation = Class.forName(id, false, Thread.currentThread().getContextClassLoader())
                        .getAnnotation(WorkflowScope.class);
                return annotation == null ? WorkflowScope.Kept.SESSION : annotation.value();
            } catch (ClassNotFoundException e) {
                return WorkflowScope.Kept.SESSION;
            }
        });
    }

    /**
     * The workflow (class name) of session scope {@code scope} when Mnemos does not listen to its agents; empty for an
     * attached workflow and for a scope this store did not see (no workflow, or no session).
     */
    Optional<String> unattachedWorkflow(AgenticScope scope) {
        return Optional.ofNullable(scope).map(workflows::getIfPresent).filter(workflow -> !attached.contains(workflow));
    }

    /** Why the {@code @SessionMemory} agent {@code agent} of the unattached workflow {@code workflow} is refused. */
    static IllegalStateException unattached(String workflow, Class<?> agent) {
        return new IllegalStateException("workflow " + workflow + " runs the @SessionMemory agent " + agent.getName()
                + " but Mnemos does not listen to its agents, so no step would be read or written: a workflow built with"
                + " AgenticServices builders must be passed to AgentSteps.attach(workflow) before its first call");
    }

    /** @throws IllegalStateException when a workflow Mnemos does not listen to ran a {@code @SessionMemory} agent */
    private void refuseUnattached(String agentId, DefaultAgenticScope scope) {
        if (attached.contains(agentId)) {
            return;
        }
        scope.agentInvocations().stream().map(AgentInvocation::agentType).filter(StepAgents::isStep).findFirst()
                .ifPresent(agent -> {
                    throw unattached(agentId, agent);
                });
    }

    private static boolean isPersistent(String json) {
        try {
            return DefaultAgenticScope.Kind.PERSISTENT.name().equals(JSON.readTree(json).path("kind").asText());
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /** A stored scope's JSON with {@code sessionId} as its memory id: a forked session's scope is the fork's own. */
    private static String underId(String json, String sessionId) {
        try {
            ObjectNode scope = (ObjectNode) JSON.readTree(json);
            scope.put("memoryId", sessionId);
            return JSON.writeValueAsString(scope);
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("the agentic scope kept in session " + sessionId + " is not a JSON object", e);
        }
    }
}

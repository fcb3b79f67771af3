package dev.mnemos.promotion;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.mnemos.injection.SessionChatHistory;
import dev.mnemos.llm.ExtractedFact;
import dev.mnemos.llm.ExtractionModel;
import dev.mnemos.llm.ExtractionRequest;
import dev.mnemos.profile.Category;
import dev.mnemos.profile.ProfilePromotions;
import dev.mnemos.profile.SlotRules;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionState;
import io.quarkus.arc.ClientProxy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import org.jboss.logging.Logger;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Where promotion candidates come from: the session's observations, and — with a configured model
 * and {@code quarkus.mnemos.promotion.extract-at-end} — facts extracted from the user's own chat messages
 * (never the assistant's): those of every chat window Mnemos keeps for the session (the shared one and each AI
 * service's own, {@code quarkus.mnemos.injection.chat-window}), and those an application's own
 * {@link ChatMemoryStore} keeps under the session id. When extraction is skipped, the reason is logged at INFO.
 */
@ApplicationScoped
public class CandidateSources {

    private static final Logger LOG = Logger.getLogger(CandidateSources.class);

    private final ExtractionModel extraction;
    private final ProfilePromotions profile;
    private final Instance<ChatMemoryStore> chats;
    private final PromotionConfig config;
    private final StatementReader statements;
    private final SessionChatHistory redisWindows;

    public CandidateSources(ExtractionModel extraction, ProfilePromotions profile, Instance<ChatMemoryStore> chats,
            PromotionConfig config, StatementReader statements, SessionChatHistory redisWindows) {
        this.redisWindows = redisWindows;
        this.extraction = extraction;
        this.profile = profile;
        this.chats = chats;
        this.config = config;
        this.statements = statements;
    }

    /**
     * The session's candidates: each observation, or each of its clauses when it holds several that
     * read differently ("for this report use bullets, and always cite sources"), plus extracted facts.
     */
    public List<Candidate> candidates(SessionState state) {
        List<Candidate> result = new ArrayList<>();
        for (Observation o : state.observations()) {
            List<String> clauses = Candidate.of(o).override() ? List.of() : statements.clauses(o.text());
            if (clauses.size() > 1) {
                clauses.forEach(clause -> result.add(Candidate.of(o, clause)));
            } else {
                result.add(Candidate.of(o));
            }
        }
        extracted(state.sessionId()).forEach(f -> result.add(of(f)));
        return result.stream().map(c -> c.withEmbedding(profile.embed(c.text()))).toList();
    }

    /** The facts extracted from the user's chat messages; empty, with the reason logged, when extraction is skipped. */
    private List<ExtractedFact> extracted(String sessionId) {
        if (!config.extractAtEnd()) {
            LOG.infof("session %s: no facts extracted from its chat, quarkus.mnemos.promotion.extract-at-end is false",
                    sessionId);
            return List.of();
        }
        if (!extraction.enabled()) {
            LOG.infof("session %s: no facts extracted from its chat, %s", sessionId, extraction.whyDisabled());
            return List.of();
        }
        List<String> said = userMessages(sessionId);
        if (said.isEmpty()) {
            LOG.infof("session %s: no facts extracted, its chat windows hold no user message (only observations are"
                    + " candidates)", sessionId);
            return List.of();
        }
        Optional<List<ExtractedFact>> facts = extraction.extract(new ExtractionRequest(LocalDate.now(), "task session", said));
        if (facts.isEmpty()) {
            LOG.infof("session %s: no facts extracted from %d user messages, the model gave no usable answer (logged"
                    + " above)", sessionId, said.size());
        }
        return facts.orElse(List.of());
    }

    /** The user's messages in every window of the session, each text once, oldest window content first. */
    private List<String> userMessages(String sessionId) {
        Set<String> said = new LinkedHashSet<>();
        List<List<ChatMessage>> windows = new ArrayList<>(redisWindows.windows(sessionId));
        for (ChatMemoryStore store : chats) {
            if (!(ClientProxy.unwrap(store) instanceof SessionChatHistory)) {
                windows.add(store.getMessages(sessionId));
            }
        }
        for (List<ChatMessage> window : windows) {
            window.stream().filter(UserMessage.class::isInstance).map(m -> ((UserMessage) m).singleText())
                    .forEach(said::add);
        }
        return List.copyOf(said);
    }

    private static Candidate of(ExtractedFact fact) {
        var detected = SlotRules.detect(fact.text());
        Category category = category(fact.category())
                .orElse(detected.map(SlotRules.Slot::category).orElse(Category.PREFERENCE));
        Scope scope = fact.scope() == null ? Scope.UNKNOWN : switch (fact.scope()) {
            case "TASK" -> Scope.TASK;
            case "STABLE" -> Scope.STABLE;
            default -> Scope.UNKNOWN;
        };
        return new Candidate(null, fact.text(), category, detected.map(SlotRules.Slot::name).orElse(null), scope,
                true, fact.text());
    }

    private static Optional<Category> category(String value) {
        try {
            return value == null ? Optional.empty()
                    : Optional.of(Category.valueOf(value.toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}

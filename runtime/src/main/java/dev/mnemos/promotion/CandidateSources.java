package dev.mnemos.promotion;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.mnemos.llm.ExtractedFact;
import dev.mnemos.llm.ExtractionModel;
import dev.mnemos.llm.ExtractionRequest;
import dev.mnemos.profile.Category;
import dev.mnemos.profile.ProfilePromotions;
import dev.mnemos.profile.SlotRules;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where promotion candidates come from: the session's observations, and — with a configured model
 * and {@code mnemos.promotion.extract-at-end} — facts extracted from the user's own chat messages
 * (never the assistant's) kept by the application's {@link ChatMemoryStore} under the session id.
 */
@ApplicationScoped
public class CandidateSources {

    private final ExtractionModel extraction;
    private final ProfilePromotions profile;
    private final Instance<ChatMemoryStore> chats;
    private final PromotionConfig config;
    private final StatementReader statements;

    public CandidateSources(ExtractionModel extraction, ProfilePromotions profile, Instance<ChatMemoryStore> chats,
            PromotionConfig config, StatementReader statements) {
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
        if (config.extractAtEnd() && extraction.enabled()) {
            List<String> said = userMessages(state.sessionId());
            extraction.extract(new ExtractionRequest(LocalDate.now(), "task session", said))
                    .ifPresent(facts -> facts.forEach(f -> result.add(of(f))));
        }
        return result.stream().map(c -> c.withEmbedding(profile.embed(c.text()))).toList();
    }

    private List<String> userMessages(String sessionId) {
        if (!chats.isResolvable()) {
            return List.of();
        }
        List<ChatMessage> messages = chats.get().getMessages(sessionId);
        return messages.stream().filter(UserMessage.class::isInstance)
                .map(m -> ((UserMessage) m).singleText()).toList();
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

package dev.mnemos.profile;

import dev.mnemos.llm.ExtractedFact;
import dev.mnemos.llm.ExtractionModel;
import dev.mnemos.llm.ExtractionRequest;
import dev.mnemos.session.Idempotency;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Imports what another assistant knew about the user: facts extracted by the model when one is
 * configured (task-scoped ones dropped), one fact per line otherwise. Exact and near duplicates of
 * existing facts only add evidence to them; a fact the user forgot, or a rewording of it, is not imported
 * ({@link ForgottenTexts}).
 */
@ApplicationScoped
public class ProfileImporter {

    private static final Pattern BULLET = Pattern.compile("^\\s*([-*•·]|\\d+[.)、])\\s*");

    private final ExtractionModel model;
    private final FactEmbeddings embeddings;
    private final ProfileReader reader;
    private final ProfileService profiles;
    private final ProfileConfig config;

    public ProfileImporter(ExtractionModel model, FactEmbeddings embeddings, ProfileReader reader,
            ProfileService profiles, ProfileConfig config) {
        this.model = model;
        this.embeddings = embeddings;
        this.reader = reader;
        this.profiles = profiles;
        this.config = config;
    }

    public WriteResult importText(String userId, String actor, String text) {
        return importText(userId, actor, text, null);
    }

    /**
     * Extracts facts from {@code text} and writes them, at most once per {@code idem} (null: no key): a repeat
     * writes nothing, answers the first import's changes and does not ask the model again ({@link ProfileRequests}).
     */
    public WriteResult importText(String userId, String actor, String text, Idempotency idem) {
        new FactValidator(config).input("text", text);
        Optional<WriteResult> repeat = profiles.repeated(userId, idem);
        if (repeat.isPresent()) {
            return repeat.get();
        }
        Optional<List<ExtractedFact>> extracted = model.extract(
                new ExtractionRequest(LocalDate.now(), "export of another assistant's memory of the user", List.of(text)));
        List<ExtractedFact> facts = extracted.map(f -> f.stream().filter(e -> !"TASK".equals(e.scope())).toList())
                .orElseGet(() -> lines(text));
        List<FactDraft> base = reader.snapshot(userId);
        List<FactDraft> incoming = new ArrayList<>(base);
        DeterministicReconcile drafts = new DeterministicReconcile(embeddings, config, SourceKind.IMPORT,
                config.importConfidence());
        for (ExtractedFact fact : facts) {
            FactDraft draft = drafts.draft(fact.text(), fact.category(), null);
            incoming.add(FactEmbeddings.nearest(draft.embedding(), base, config.duplicateSimilarity(), 1).stream()
                    .findFirst().map(s -> sameAs(draft, s.fact())).orElse(draft));
        }
        return profiles.write(WriteContext.automatic(userId, actor, "imported"), new ChangeSet(base, incoming, Set.of()),
                extracted.isPresent() ? Reconciler.Path.MODEL : Reconciler.Path.DETERMINISTIC, idem);
    }

    /** A near duplicate takes the existing text, so the writer counts it as evidence for that fact. */
    private static FactDraft sameAs(FactDraft draft, FactDraft existing) {
        return FactDraft.fresh(draft.category(), draft.slot(), existing.text(), draft.confidence(), draft.sourceKind(), null)
                .withEmbedding(existing.embedding());
    }

    private static List<ExtractedFact> lines(String text) {
        return text.lines().map(l -> BULLET.matcher(l).replaceFirst("").strip()).filter(l -> !l.isEmpty())
                .map(l -> new ExtractedFact(l, null, null)).toList();
    }
}

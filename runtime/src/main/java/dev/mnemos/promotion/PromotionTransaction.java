package dev.mnemos.promotion;

import dev.mnemos.archive.ArchiveEntry;
import dev.mnemos.archive.EndedSessions;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.profile.Change;
import dev.mnemos.profile.NewFact;
import dev.mnemos.profile.ProfileAction;
import dev.mnemos.profile.ProfilePromotions;
import dev.mnemos.profile.WriteContext;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionEvent;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Postgres half of ending a session, in one transaction under the user's profile lock: decide
 * every candidate, promote through the profile's merge path, store the decisions, audit them, and
 * archive the session with its report. A session already archived answers its stored report.
 */
@ApplicationScoped
public class PromotionTransaction {

    private final ProfilePromotions profile;
    private final EvidenceReader evidence;
    private final EndedSessions archive;

    public PromotionTransaction(ProfilePromotions profile, EvidenceReader evidence, EndedSessions archive) {
        this.profile = profile;
        this.evidence = evidence;
        this.archive = archive;
    }

    @Transactional
    public PromotionReport commit(SessionState state, List<SessionEvent> events, List<StepTrace> traces,
            List<Candidate> candidates,
            PromotionPolicy policy, String actor) {
        String userId = state.userId();
        profile.lock(userId);
        Optional<PromotionReport> done = archive.report(state.sessionId(), PromotionReport.class);
        if (done.isPresent()) {
            return done.get();
        }
        Instant now = Instant.now();
        Map<String, Candidate> unique = new LinkedHashMap<>();
        candidates.forEach(c -> unique.putIfAbsent(c.key(), c));
        List<DecisionEntry> promoted = new ArrayList<>();
        List<DecisionEntry> pending = new ArrayList<>();
        List<DecisionEntry> rejected = new ArrayList<>();
        List<NewFact> facts = new ArrayList<>();
        WriteContext ctx = new WriteContext(userId, actor, state.sessionId(), WriteContext.Mode.AUTOMATIC,
                ProfileAction.PROMOTE, "promoted at the end of session " + state.sessionId());
        List<Candidate> lasting = unique.values().stream()
                .filter(c -> policy.scopeOf(c) != Scope.TASK).toList();
        for (Candidate c : unique.values()) {
            EvidenceReader.Found found = evidence.of(userId, state.sessionId(), c, lasting);
            Decision d = policy.decide(c, found.evidence());
            PromotionCandidate row = store(state.sessionId(), userId, c, d, now);
            DecisionEntry entry = new DecisionEntry(row.id, c.observationId(), c.text(), c.slot(), c.category(),
                    d.verdict(), d.scope(), d.confidence(), d.reason());
            switch (d.verdict()) {
                case PROMOTE -> {
                    promoted.add(entry);
                    facts.add(new NewFact(c.category(), c.slot(), c.text(), d.confidence()));
                    evidence.settle(userId, found.same(), CandidateStatus.PROMOTED, now);
                }
                case PENDING -> {
                    pending.add(entry);
                    profile.record(ctx, ProfileAction.PENDING, c.text(), d.reason());
                }
                case REJECT -> {
                    rejected.add(entry);
                    profile.record(ctx, ProfileAction.REJECT, c.text(), d.reason());
                }
            }
        }
        List<Change> changes = facts.isEmpty() ? List.of()
                : profile.promote(userId, state.sessionId(), actor, facts, ctx.reason(), policy.markers());
        PromotionReport report = new PromotionReport(state.sessionId(), userId, now, promoted, pending, rejected, changes);
        archive.save(new ArchiveEntry(state, events, traces, report, now));
        return report;
    }

    /** The stored report of an archived session. */
    @Transactional
    public Optional<PromotionReport> report(String sessionId) {
        return archive.report(sessionId, PromotionReport.class);
    }

    private PromotionCandidate store(String sessionId, String userId, Candidate c, Decision d, Instant now) {
        PromotionCandidate row = new PromotionCandidate();
        row.userId = userId;
        row.sessionId = sessionId;
        row.observationId = c.observationId();
        row.candidateKey = c.key();
        row.slot = c.slot();
        row.category = c.category();
        row.text = c.text();
        row.confidence = d.confidence();
        row.status = switch (d.verdict()) {
            case PROMOTE -> CandidateStatus.PROMOTED;
            case PENDING -> CandidateStatus.PENDING;
            case REJECT -> CandidateStatus.REJECTED;
        };
        row.reason = d.reason();
        row.embedding = profile.encode(c.embedding());
        row.createdAt = now;
        row.decidedAt = d.verdict() == Verdict.PENDING ? null : now;
        row.persist();
        return row;
    }
}

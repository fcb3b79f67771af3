package dev.mnemos.promotion;

import dev.mnemos.archive.ArchiveEntry;
import dev.mnemos.archive.EndedSessions;
import dev.mnemos.erasure.ForgottenCopies;
import dev.mnemos.profile.Change;
import dev.mnemos.profile.NewFact;
import dev.mnemos.profile.ProfileAction;
import dev.mnemos.profile.ProfilePromotions;
import dev.mnemos.profile.ProfileTransaction;
import dev.mnemos.profile.Tombstones;
import dev.mnemos.profile.WriteContext;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The Postgres half of ending a session, in one transaction under the user's profile lock: decide
 * every candidate, promote through the profile's merge path, store the decisions, audit them, and
 * archive the session with its report. A session already archived answers its stored report.
 * A candidate the user forgot is rejected without being stored or quoted; at most
 * {@link PromotionConfig#maxPerSession()} candidates are promoted and, when the profile is full, none
 * that would add to it: those stay pending, with the reason. A candidate that would change a fact the user owns, or
 * that another candidate of the session contradicts, stays pending too ({@link ProfilePromotions.Promotion#held()});
 * a request to forget is never a fact: it stays pending until the user confirms it ({@link PendingCandidates}).
 */
@ApplicationScoped
public class PromotionTransaction {

    /** What a report shows in place of a candidate the user forgot. */
    static final String FORGOTTEN_TEXT = ForgottenCopies.FORGOTTEN;

    private final ProfilePromotions profile;
    private final EvidenceReader evidence;
    private final EndedSessions archive;
    private final PromotionConfig config;

    public PromotionTransaction(ProfilePromotions profile, EvidenceReader evidence, EndedSessions archive,
            PromotionConfig config) {
        this.profile = profile;
        this.evidence = evidence;
        this.archive = archive;
        this.config = config;
    }

    /** A candidate decided PROMOTE, before the profile takes it or leaves it out. */
    private record Promotable(Candidate candidate, Decision decision, PromotionCandidate row, List<Long> same) {

        NewFact fact() {
            return new NewFact(candidate.category(), candidate.slot(), candidate.text(), decision.confidence());
        }
    }

    /**
     * Decides the candidates and archives the session. {@code read} is what the end read of the session before it took
     * the user's lock; when the user has forgotten anything, the session is read again ({@code again}) under the lock:
     * a forget that committed in between blanked the session in Redis before it let the lock go, so the archive never
     * holds what a forget acknowledged before it was written, and a candidate whose observation it blanked is rejected.
     */
    @Transactional
    public Ended commit(EndRead read, Supplier<EndRead> again, List<Candidate> candidates, PromotionPolicy policy,
            String actor) {
        String userId = read.state().userId();
        profile.lock(userId);
        Optional<PromotionReport> done = archive.report(read.state().sessionId(), PromotionReport.class);
        if (done.isPresent()) {
            return new Ended(done.get(), false);
        }
        Tombstones forgotten = profile.forgotten(userId);
        EndRead ended = forgotten.isEmpty() ? read : again.get();
        SessionState state = ended.state();
        Set<String> blanked = state.observations().stream().filter(o -> o.text().contains(FORGOTTEN_TEXT))
                .map(Observation::id).collect(Collectors.toSet());
        Instant now = Instant.now();
        Map<String, Candidate> unique = new LinkedHashMap<>();
        candidates.forEach(c -> unique.putIfAbsent(c.key(), c));
        List<DecisionEntry> promoted = new ArrayList<>();
        List<DecisionEntry> pending = new ArrayList<>();
        List<DecisionEntry> rejected = new ArrayList<>();
        List<Promotable> promotable = new ArrayList<>();
        WriteContext ctx = new WriteContext(userId, actor, state.sessionId(), WriteContext.Mode.PROMOTION,
                ProfileAction.PROMOTE, "promoted at the end of session " + state.sessionId());
        List<Candidate> lasting = unique.values().stream()
                .filter(c -> policy.scopeOf(c) != Scope.TASK).toList();
        EvidenceReader.Run earlier = evidence.run(userId, state.sessionId(), lasting);
        for (Candidate c : unique.values()) {
            // a live session's copy of a forgotten text was blanked to FORGOTTEN_TEXT when it was forgotten
            if (c.text().contains(FORGOTTEN_TEXT) || blanked.contains(c.observationId())
                    || forgotten.covers(c.text(), c.embedding())) {
                rejected.add(new DecisionEntry(null, c.observationId(), FORGOTTEN_TEXT, c.slot(), c.category(),
                        Verdict.REJECT, c.scope(), 0, ProfileTransaction.FORGOTTEN));
                profile.record(ctx, ProfileAction.REJECT, null, ProfileTransaction.FORGOTTEN);
                continue;
            }
            EvidenceReader.Found found = earlier.of(c);
            Decision d = withinSession(policy.decide(c, found.evidence()), promotable.size());
            PromotionCandidate row = store(state.sessionId(), userId, c, d, now);
            switch (d.verdict()) {
                case PROMOTE -> promotable.add(new Promotable(c, d, row, found.same()));
                case PENDING -> {
                    pending.add(entry(row, c, d));
                    profile.record(ctx, ProfileAction.PENDING, c.text(), d.reason());
                }
                case REJECT -> {
                    rejected.add(entry(row, c, d));
                    profile.record(ctx, ProfileAction.REJECT, c.text(), d.reason());
                }
            }
        }
        List<Change> changes = List.of();
        if (!promotable.isEmpty()) {
            ProfilePromotions.Promotion written = profile.promote(userId, state.sessionId(), actor,
                    promotable.stream().map(Promotable::fact).toList(),
                    promotable.stream().map(p -> p.candidate().embedding()).toList(), ctx.reason(), policy.markers());
            changes = written.changes();
            List<Long> settled = new ArrayList<>();
            for (int i = 0; i < promotable.size(); i++) {
                Promotable p = promotable.get(i);
                if (written.held().containsKey(i)) {
                    Decision d = held(p.decision(), written.held().get(i));
                    p.row().status = CandidateStatus.PENDING;
                    p.row().reason = d.reason();
                    p.row().decidedAt = null;
                    pending.add(entry(p.row(), p.candidate(), d));
                    profile.record(ctx, ProfileAction.PENDING, p.candidate().text(), d.reason());
                } else if (written.leftOut().contains(i)) {
                    Decision d = full(p.decision());
                    p.row().status = CandidateStatus.PENDING;
                    p.row().reason = d.reason();
                    p.row().decidedAt = null;
                    pending.add(entry(p.row(), p.candidate(), d));
                    profile.record(ctx, ProfileAction.PENDING, p.candidate().text(), d.reason());
                } else {
                    promoted.add(entry(p.row(), p.candidate(), p.decision()));
                    settled.addAll(p.same());
                }
            }
            evidence.settle(userId, settled, CandidateStatus.PROMOTED, now);
        }
        PromotionReport report = new PromotionReport(state.sessionId(), userId, now, promoted, pending, rejected, changes);
        archive.save(new ArchiveEntry(state, ended.events(), ended.traces(), report, now));
        return new Ended(report, true);
    }

    /**
     * The report of an end, and whether this transaction archived the session ({@code false}: another end, on this
     * instance or another, archived it first and this one answers the stored report).
     */
    public record Ended(PromotionReport report, boolean archivedNow) {
    }

    /** The stored report of an archived session. */
    @Transactional
    public Optional<PromotionReport> report(String sessionId) {
        return archive.report(sessionId, PromotionReport.class);
    }

    /** A promotion beyond the session's allowance waits for the user instead. */
    private Decision withinSession(Decision d, int promotedSoFar) {
        if (d.verdict() != Verdict.PROMOTE || promotedSoFar < config.maxPerSession()) {
            return d;
        }
        return new Decision(Verdict.PENDING, d.scope(), d.confidence(), d.reason() + "; a session promotes at most "
                + config.maxPerSession() + " facts (quarkus.mnemos.promotion.max-per-session): awaiting confirmation");
    }

    /** A promotion the profile held (it would change the user's own fact, or this session contradicts it) waits. */
    private static Decision held(Decision d, String why) {
        return new Decision(Verdict.PENDING, d.scope(), d.confidence(), d.reason() + "; " + why);
    }

    /** A promotion the full profile left out waits for the user, who makes room first. */
    private Decision full(Decision d) {
        return new Decision(Verdict.PENDING, d.scope(), d.confidence(), d.reason() + "; the profile holds its maximum of "
                + profile.maxFacts() + " active facts: forget or correct one, then confirm this one");
    }

    private static DecisionEntry entry(PromotionCandidate row, Candidate c, Decision d) {
        return new DecisionEntry(row.id, c.observationId(), c.text(), c.slot(), c.category(), d.verdict(), d.scope(),
                d.confidence(), d.reason());
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

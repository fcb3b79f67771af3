package dev.mnemos.profile;

import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The profile as it was at any instant, and how it changed between two, read from the facts' validity and the audit
 * trail: a fact was valid at {@code t} when {@code valid_from <= t} and ({@code valid_to} is null or later), except
 * in the gaps an undo left (a RESTORE event keeps the {@code valid_to} the fact had: the fact was not valid from
 * then until the restore). Forgotten facts are gone from every instant, as their texts are from the trail.
 */
@ApplicationScoped
public class ProfileTimeline {

    /** Most audit events a diff lists. */
    public static final int MAX_EVENTS = 1000;

    /** The facts valid at {@code at}, oldest first; empty before the user's first write. */
    @Transactional
    public ProfileAsOf asOf(String userId, Instant at) {
        return new ProfileAsOf(userId, at, factsAt(userId, at));
    }

    /**
     * The facts removed and added from {@code from} to {@code to} ({@code from} not after {@code to}), and the events between.
     */
    @Transactional
    public ProfileDiff diff(String userId, Instant from, Instant to) {
        Map<Long, FactAt> before = byId(factsAt(userId, from));
        Map<Long, FactAt> after = byId(factsAt(userId, to));
        List<FactAt> removed = before.values().stream().filter(f -> !after.containsKey(f.id())).toList();
        Map<Instant, List<ProfileEvent>> ends = ChangeCauses.at(userId,
                removed.stream().map(FactAt::validTo).filter(Objects::nonNull).collect(Collectors.toSet()));
        List<FactChange> changes = new ArrayList<>();
        for (FactAt fact : removed) {
            HistoryEntry by = fact.validTo() == null ? null
                    : ChangeCauses.ended(ends.getOrDefault(fact.validTo(), List.of()), fact.id()).map(ProfileEvent::view)
                            .orElse(null);
            changes.add(new FactChange("removed", fact, by));
        }
        after.values().stream().filter(f -> !before.containsKey(f.id()))
                .forEach(f -> changes.add(new FactChange("added", f, f.madeBy())));
        List<ProfileEvent> events = ProfileEvent.<ProfileEvent> find("userId = ?1 and at > ?2 and at <= ?3", Sort.by("id"),
                userId, from, to).page(0, MAX_EVENTS + 1).list();
        return new ProfileDiff(userId, from, to, changes,
                events.stream().limit(MAX_EVENTS).map(ProfileEvent::view).toList(), events.size() > MAX_EVENTS);
    }

    private List<FactAt> factsAt(String userId, Instant at) {
        List<ProfileFact> rows = ProfileFact.list("userId = ?1 and validFrom <= ?2 and (validTo is null or validTo > ?2)",
                Sort.by("id"), userId, at);
        if (rows.isEmpty()) {
            return List.of();
        }
        Map<Long, List<ProfileEvent>> gaps = ProfileEvent.<ProfileEvent> list(
                "userId = ?1 and action = ?2 and priorValidTo is not null and factId in ?3", userId, ProfileAction.RESTORE,
                rows.stream().map(f -> f.id).toList()).stream().collect(Collectors.groupingBy(e -> e.factId));
        List<Period> periods = new ArrayList<>();
        for (ProfileFact row : rows) {
            Period period = Period.of(row, gaps.getOrDefault(row.id, List.of()), at);
            if (period != null) {
                periods.add(period);
            }
        }
        Set<Instant> starts = new HashSet<>();
        periods.forEach(p -> starts.add(p.from()));
        Map<Instant, List<ProfileEvent>> causes = ChangeCauses.at(userId, starts);
        return periods.stream().map(p -> p.view(ChangeCauses.started(causes.getOrDefault(p.from(), List.of()), p.fact().id)
                .map(ProfileEvent::view).orElse(null))).toList();
    }

    private static Map<Long, FactAt> byId(List<FactAt> facts) {
        return facts.stream().collect(Collectors.toMap(FactAt::id, Function.identity(), (a, b) -> a, LinkedHashMap::new));
    }

    /** The period of a fact's validity that holds an instant. */
    private record Period(ProfileFact fact, Instant from, Instant to) {

        /** The period of {@code fact} (valid by its columns at {@code at}) holding {@code at}; null inside a gap. */
        static Period of(ProfileFact fact, List<ProfileEvent> restores, Instant at) {
            Instant from = fact.validFrom;
            Instant to = fact.validTo;
            for (ProfileEvent restore : restores) {
                boolean gapStarted = !restore.priorValidTo.isAfter(at);
                boolean restored = !restore.at.isAfter(at);
                if (gapStarted && !restored) {
                    return null;
                }
                if (restored && restore.at.isAfter(from)) {
                    from = restore.at;
                } else if (!gapStarted && (to == null || restore.priorValidTo.isBefore(to))) {
                    to = restore.priorValidTo;
                }
            }
            return new Period(fact, from, to);
        }

        FactAt view(HistoryEntry madeBy) {
            return new FactAt(fact.id, fact.category, fact.slot, fact.text, fact.confidence, fact.taskState, from, to,
                    madeBy);
        }
    }
}

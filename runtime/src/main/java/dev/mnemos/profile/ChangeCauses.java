package dev.mnemos.profile;

import io.quarkus.panache.common.Sort;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which audit event made a fact's validity start or end. A write stamps its facts' {@code valid_from} /
 * {@code valid_to} and its events with one instant, so the events of that instant hold the cause: the one naming
 * the fact, else the one whose fact replaced it ({@code "replaces fact <id>"}), else any event of that write (they
 * share the actor and the session). Runs in the caller's transaction.
 */
final class ChangeCauses {

    /** How {@link ProfileTransaction} names the fact a new one replaces, at the start of the event's reason. */
    private static final Pattern REPLACES = Pattern.compile("^replaces fact (\\d+)");

    private static final Set<ProfileAction> STARTS = Set.of(ProfileAction.ADD, ProfileAction.PROMOTE, ProfileAction.UPDATE,
            ProfileAction.RESTORE);

    private ChangeCauses() {
    }

    /** The fact an ADD / PROMOTE / UPDATE event's fact replaced, when it replaced one. */
    static Optional<Long> replaced(ProfileEvent event) {
        if (event.reason == null) {
            return Optional.empty();
        }
        Matcher m = REPLACES.matcher(event.reason);
        return m.find() ? Optional.of(Long.valueOf(m.group(1))) : Optional.empty();
    }

    /** The user's events of each instant, oldest first. */
    static Map<Instant, List<ProfileEvent>> at(String userId, Collection<Instant> instants) {
        if (instants.isEmpty()) {
            return Map.of();
        }
        List<ProfileEvent> events = ProfileEvent.list("userId = ?1 and at in ?2", Sort.by("id"), userId, Set.copyOf(instants));
        return events.stream().collect(Collectors.groupingBy(e -> e.at, LinkedHashMap::new, Collectors.toList()));
    }

    /** The event among {@code events} (one instant's) that made fact {@code factId} valid. */
    static Optional<ProfileEvent> started(List<ProfileEvent> events, long factId) {
        return events.stream().filter(e -> Long.valueOf(factId).equals(e.factId) && STARTS.contains(e.action)).findFirst()
                .or(() -> events.stream().findFirst());
    }

    /** The event among {@code events} (one instant's) that ended fact {@code factId}'s validity. */
    static Optional<ProfileEvent> ended(List<ProfileEvent> events, long factId) {
        return events.stream().filter(e -> Long.valueOf(factId).equals(e.factId) && !STARTS.contains(e.action)).findFirst()
                .or(() -> events.stream().filter(e -> replaced(e).filter(id -> id == factId).isPresent()).findFirst())
                .or(() -> events.stream().findFirst());
    }

    /** The event that ended the validity of {@code fact}, which is no longer ACTIVE. */
    static Optional<ProfileEvent> ended(ProfileFact fact) {
        if (fact.validTo == null) {
            return Optional.empty();
        }
        return ended(at(fact.userId, List.of(fact.validTo)).getOrDefault(fact.validTo, List.of()), fact.id);
    }

    /** An event as a short mention: {@code event 41 (PROMOTE by alice in session s-1)}. */
    static String describe(ProfileEvent event) {
        return "event " + event.id + " (" + event.action + " by " + event.actor
                + (event.sessionId == null ? "" : " in session " + event.sessionId) + ")";
    }
}

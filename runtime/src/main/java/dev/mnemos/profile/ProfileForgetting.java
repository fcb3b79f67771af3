package dev.mnemos.profile;

import dev.mnemos.crypt.MemoryCipher;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * Forgetting, as the profile's write path does it ({@link ProfileTransaction} holds the user's lock): a fact goes
 * with its earlier versions, every copy of its text is removed ({@link FactForgotten}), the audit trail stops
 * quoting it, and the text is recorded as forgotten ({@link ForgottenTexts}) so that neither it nor a rewording
 * comes back. Runs inside the caller's transaction.
 */
@ApplicationScoped
class ProfileForgetting {

    private final ProfileRepository repository;
    private final Event<FactForgotten> forgotten;
    private final ProfileRequests requests;
    private final ForgottenTexts forgottenTexts;
    private final MemoryCipher cipher;

    ProfileForgetting(ProfileRepository repository, Event<FactForgotten> forgotten, ProfileRequests requests,
            ForgottenTexts forgottenTexts, MemoryCipher cipher) {
        this.repository = repository;
        this.cipher = cipher;
        this.forgotten = forgotten;
        this.requests = requests;
        this.forgottenTexts = forgottenTexts;
    }

    /**
     * Forgets the fact with its earlier versions (its slot's history, and the facts it replaced, followed back through
     * the audit trail), then the superseded facts and the audit texts that say a forgotten text again in other words
     * ({@link #forgetRewordings}).
     */
    List<Change> forget(ProfileFact fact, WriteContext ctx, Instant now) {
        Set<ProfileFact> targets = new LinkedHashSet<>(List.of(fact));
        if (fact.slot != null) {
            repository.slotHistory(ctx.userId(), fact.slot).stream()
                    .filter(f -> !f.id.equals(fact.id) && !f.active()).forEach(targets::add);
        }
        targets.addAll(earlierVersions(ctx.userId(), fact));
        List<Change> report = new ArrayList<>();
        for (ProfileFact target : targets) {
            report.add(forgetOne(target, ctx, now, target == fact ? ctx.reason()
                    : "forgotten with fact " + fact.id + (fact.slot != null && fact.slot.equals(target.slot) ? " (same slot)"
                            : " (an earlier version)")));
        }
        report.addAll(forgetRewordings(ctx, now));
        return report;
    }

    private Change forgetOne(ProfileFact target, WriteContext ctx, Instant now, String reason) {
        ProfileEvent.update("before = null, after = null where userId = ?1 and factId = ?2", ctx.userId(), target.id);
        unquote(ctx.userId(), target.text);
        forgottenTexts.add(ctx.userId(), target.text, target.embedding, now);
        forgotten.fire(new FactForgotten(ctx.userId(), target.id, target.slot, target.text));
        requests.forgotten(ctx.userId());
        target.delete();
        return ProfileAudit.audit(ctx, target.id, ProfileAction.FORGET, null, null, reason, now);
    }

    /**
     * Other facts' events may quote a forgotten text too (the UPDATE that superseded it, a MERGE, a PENDING …). Sealed
     * texts do not compare in SQL (each is sealed with a nonce of its own): with encryption on, the user's quoting
     * events are compared here.
     */
    private void unquote(String userId, String text) {
        if (!cipher.on()) {
            ProfileEvent.update("before = null where userId = ?1 and before = ?2", userId, text);
            ProfileEvent.update("after = null where userId = ?1 and after = ?2", userId, text);
            return;
        }
        for (ProfileEvent event : ProfileEvent.<ProfileEvent> list(
                "userId = ?1 and (before is not null or after is not null)", userId)) {
            if (text.equals(event.before)) {
                event.before = null;
            }
            if (text.equals(event.after)) {
                event.after = null;
            }
        }
    }

    /** The superseded facts {@code fact} replaced, and the ones they replaced, as the audit trail's UPDATE events name them. */
    private List<ProfileFact> earlierVersions(String userId, ProfileFact fact) {
        List<ProfileFact> earlier = new ArrayList<>();
        Deque<Long> next = new ArrayDeque<>(List.of(fact.id));
        Set<Long> seen = new HashSet<>(next);
        while (!next.isEmpty()) {
            for (ProfileEvent event : ProfileEvent.<ProfileEvent> list("userId = ?1 and factId = ?2", userId, next.pop())) {
                Matcher m = ProfileAudit.REPLACED.matcher(event.reason == null ? "" : event.reason);
                if (m.lookingAt() && seen.add(Long.parseLong(m.group(1)))) {
                    repository.find(userId, Long.parseLong(m.group(1))).filter(f -> !f.active()).ifPresent(f -> {
                        earlier.add(f);
                        next.add(f.id);
                    });
                }
            }
        }
        return earlier;
    }

    /**
     * After a forget, the user's superseded facts that say a forgotten text again in other words go as well, and no
     * audit event quotes such a text any longer (those of active facts stay: the user sees them and forgets them
     * when they choose).
     */
    private List<Change> forgetRewordings(WriteContext ctx, Instant now) {
        Tombstones gone = forgottenTexts.of(ctx.userId());
        Map<String, Boolean> covered = new HashMap<>();
        List<Change> report = new ArrayList<>();
        Set<Long> active = new HashSet<>();
        for (ProfileFact f : repository.allFacts(ctx.userId())) {
            if (f.active()) {
                active.add(f.id);
            } else if (gone.covers(f.text, f.embedding == null ? null : FactEmbeddings.decode(f.embedding))) {
                report.add(forgetOne(f, ctx, now, "forgotten: it says a forgotten text again"));
            }
        }
        for (ProfileEvent event : ProfileEvent.<ProfileEvent> list("userId = ?1 and (before is not null or after is not null)",
                ctx.userId())) {
            if (event.factId != null && active.contains(event.factId)) {
                continue;
            }
            if (event.before != null && covered.computeIfAbsent(event.before, t -> gone.covers(t, null))) {
                event.before = null;
            }
            if (event.after != null && covered.computeIfAbsent(event.after, t -> gone.covers(t, null))) {
                event.after = null;
            }
        }
        return report;
    }

    /**
     * Forgets a text the profile does not hold as a fact (a promotion candidate's, reached by a "forget …"
     * instruction): it is recorded as forgotten ({@code embedding} in stored form, may be null), every copy is
     * removed as for a fact ({@link FactForgotten} with no fact id) and a FORGET event without the text is audited.
     * Joins the caller's transaction, which holds the user's lock.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    List<Change> forgetText(WriteContext ctx, String slot, String text, byte[] embedding) {
        Instant now = Instant.now();
        unquote(ctx.userId(), text);
        forgottenTexts.add(ctx.userId(), text, embedding, now);
        forgotten.fire(new FactForgotten(ctx.userId(), null, slot, text));
        requests.forgotten(ctx.userId());
        List<Change> report = new ArrayList<>(
                List.of(ProfileAudit.audit(ctx, null, ProfileAction.FORGET, null, null, ctx.reason(), now)));
        report.addAll(forgetRewordings(ctx, now));
        return report;
    }
}

package dev.mnemos.app;

import dev.mnemos.crypt.MemoryCipher;
import dev.mnemos.crypt.Place;
import dev.mnemos.profile.FactForgotten;
import dev.mnemos.profile.FactNotFoundException;
import dev.mnemos.profile.InvalidFactException;
import dev.mnemos.profile.ProfileConfig;
import dev.mnemos.profile.ProfileRepository;
import dev.mnemos.profile.ProfileService;
import dev.mnemos.profile.ProfileUnavailableException;
import io.quarkus.hibernate.orm.panache.Panache;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Destructive calls held for the user (docs/mcp.md "Destructive tools"): an agent's forget, "forget …" or undo beyond
 * its MCP session's budget is recorded here, checked as the call itself would check it but not carried out; the user
 * lists, confirms or rejects it outside the agent. A confirm carries the call out in the same transaction that marks
 * the request CONFIRMED, under the user's profile lock and the request's row lock, so a request is carried out once
 * however many confirms race, and a failed call leaves it PENDING. A text a request quotes (a "forget …"
 * instruction) goes when it is decided, and a request a forget made moot (its fact, or a text it quotes, forgotten)
 * goes with that forget. With encryption at rest on, an instruction is stored sealed (bound to its user and row), and
 * what SQL compared of it is compared here.
 */
@ApplicationScoped
public class PendingRequests {

    private static final String COLUMNS = "r.id, r.tool, r.fact_id, f.text, r.session_id, r.force, r.instruction, "
            + "r.status, r.created_at, r.decided_at";
    private static final String FROM = " from pending_request r left join profile_fact f on f.user_id = r.user_id "
            + "and f.id = r.fact_id and f.status = 'ACTIVE' and r.status = 'PENDING'";

    private final UserProfileService profiles;
    private final PromotionUndoService undo;
    private final ProfileService facts;
    private final ProfileRepository repository;
    private final ProfileConfig config;
    private final MemoryCipher cipher;

    PendingRequests(UserProfileService profiles, PromotionUndoService undo, ProfileService facts,
            ProfileRepository repository, ProfileConfig config, MemoryCipher cipher) {
        this.cipher = cipher;
        this.profiles = profiles;
        this.undo = undo;
        this.facts = facts;
        this.repository = repository;
        this.config = config;
    }

    /** Holds a forget of {@code factId}. @throws FactNotFoundException unless it is an active fact of the user */
    public PendingRequest holdForget(Actor who, long factId) {
        if (facts.activeFacts(who.user()).stream().noneMatch(f -> f.id() == factId)) {
            throw new FactNotFoundException(factId);
        }
        return hold(who, PendingRequest.FORGET_FACT, "fact_id", factId, false);
    }

    /** Holds a "forget …" instruction. @throws InvalidFactException naming {@code instruction} when it is blank or too long */
    public PendingRequest holdInstruction(Actor who, String instruction) {
        if (instruction == null || instruction.isBlank() || instruction.length() > config.maxInputChars()) {
            throw new InvalidFactException("instruction", "an instruction of 1 to " + config.maxInputChars() + " characters");
        }
        return hold(who, PendingRequest.REMEMBER, "instruction", instruction, false);
    }

    /**
     * Holds an undo of {@code sessionId}'s promotion. @throws dev.mnemos.session.SessionNotFoundException unless ended and the
     * user's
     */
    public PendingRequest holdUndo(Actor who, String sessionId, boolean force) {
        undo.requireEnded(who, sessionId);
        return hold(who, PendingRequest.UNDO_TASK_PROMOTION, "session_id", sessionId, force);
    }

    /** At most {@code limit} PENDING requests of the user with an id above {@code afterId}, oldest first. */
    public Page<PendingRequest> pending(String user, long afterId, int limit) {
        List<PendingRequest> read = inTransaction(() -> rows(user, em().createNativeQuery("select " + COLUMNS + FROM
                + " where r.user_id = ?1 and r.status = 'PENDING' and r.id > ?2 order by r.id limit ?3")
                .setParameter(1, user).setParameter(2, afterId).setParameter(3, limit + 1).getResultList()));
        return Page.of(read, limit, read.size() > limit ? read.get(limit - 1).id() : null);
    }

    /**
     * Carries the request out and marks it CONFIRMED; a confirmed one again answers it with {@code repeated} and does
     * nothing. @throws PendingRequestNotFoundException unless it is the user's; PendingRequestDecidedException when
     * rejected; what the call throws (the fact gone, a conflicting undo), the request then staying PENDING
     */
    public PendingRequestDecision confirm(Actor who, long id) {
        return inTransaction(() -> {
            PendingRequest request = locked(who.user(), id);
            if (PendingRequest.CONFIRMED.equals(request.status())) {
                return new PendingRequestDecision(request, true, null);
            }
            if (PendingRequest.REJECTED.equals(request.status())) {
                throw new PendingRequestDecidedException(id, request.status());
            }
            // decided first: the forget below drops the user's PENDING requests it makes moot, this one not
            decide(who.user(), id, PendingRequest.CONFIRMED);
            Object result = switch (request.tool()) {
                case PendingRequest.FORGET_FACT -> profiles.forget(who, request.factId(), null, null);
                case PendingRequest.REMEMBER -> profiles.instruct(who, request.instruction(), null, null);
                case PendingRequest.UNDO_TASK_PROMOTION ->
                    undo.undo(who, request.sessionId(), Boolean.TRUE.equals(request.force()));
                default -> throw new IllegalStateException("unknown held tool " + request.tool());
            };
            return new PendingRequestDecision(read(who.user(), id), false, result);
        });
    }

    /**
     * Marks the request REJECTED: nothing is carried out; a rejected one again answers it with {@code repeated}.
     *
     * @throws PendingRequestNotFoundException unless it is the user's; PendingRequestDecidedException when confirmed
     */
    public PendingRequestDecision reject(Actor who, long id) {
        return inTransaction(() -> {
            PendingRequest request = locked(who.user(), id);
            if (PendingRequest.REJECTED.equals(request.status())) {
                return new PendingRequestDecision(request, true, null);
            }
            if (PendingRequest.CONFIRMED.equals(request.status())) {
                throw new PendingRequestDecidedException(id, request.status());
            }
            decide(who.user(), id, PendingRequest.REJECTED);
            return new PendingRequestDecision(read(who.user(), id), false, null);
        });
    }

    /** A forget makes the user's PENDING requests to forget that fact, or quoting that text, moot: they go. */
    void onForget(@Observes FactForgotten fact) {
        if (cipher.on()) {
            forgetSealed(fact);
            return;
        }
        em().createNativeQuery("delete from pending_request where user_id = ?1 and status = 'PENDING' and (fact_id = ?2"
                + " or strpos(lower(instruction), lower(?3)) > 0)").setParameter(1, fact.userId())
                .setParameter(2, fact.factId() == null ? -1L : fact.factId()).setParameter(3, fact.text()).executeUpdate();
    }

    /** {@link #onForget} with sealed instructions: the user's PENDING ones are opened and compared here. */
    private void forgetSealed(FactForgotten fact) {
        String text = fact.text().toLowerCase(Locale.ROOT);
        List<Long> moot = new ArrayList<>();
        for (Object row : em().createNativeQuery("select id, fact_id, instruction from pending_request where user_id = ?1"
                + " and status = 'PENDING'").setParameter(1, fact.userId()).getResultList()) {
            Object[] r = (Object[]) row;
            long id = ((Number) r[0]).longValue();
            boolean sameFact = r[1] != null && fact.factId() != null && ((Number) r[1]).longValue() == fact.factId();
            String instruction = instruction(fact.userId(), id, (String) r[2]);
            if (sameFact || instruction != null && instruction.toLowerCase(Locale.ROOT).contains(text)) {
                moot.add(id);
            }
        }
        for (long id : moot) {
            em().createNativeQuery("delete from pending_request where user_id = ?1 and id = ?2")
                    .setParameter(1, fact.userId()).setParameter(2, id).executeUpdate();
        }
    }

    private PendingRequest hold(Actor who, String tool, String column, Object value, boolean force) {
        if (cipher.on() && "instruction".equals(column)) {
            return holdSealed(who, tool, (String) value);
        }
        return inTransaction(() -> {
            repository.lock(who.user());
            @SuppressWarnings("unchecked")
            List<Number> held = em().createNativeQuery("select id from pending_request where user_id = ?1 and status = "
                    + "'PENDING' and tool = ?2 and " + column + " = ?3 and force = ?4 order by id limit 1")
                    .setParameter(1, who.user()).setParameter(2, tool).setParameter(3, value).setParameter(4, force)
                    .getResultList();
            if (!held.isEmpty()) {
                return read(who.user(), held.get(0).longValue());
            }
            long id = ((Number) em().createNativeQuery("select nextval('pending_request_id_seq')").getSingleResult())
                    .longValue();
            em().createNativeQuery("insert into pending_request (id, user_id, tool, " + column
                    + ", force, status, created_at) values (?1, ?2, ?3, ?4, ?5, 'PENDING', ?6)").setParameter(1, id)
                    .setParameter(2, who.user()).setParameter(3, tool).setParameter(4, value).setParameter(5, force)
                    .setParameter(6, Instant.now()).executeUpdate();
            return read(who.user(), id);
        });
    }

    /** {@link #hold} of an instruction, stored sealed: a PENDING request holding the same one is found by opening them. */
    private PendingRequest holdSealed(Actor who, String tool, String instruction) {
        return inTransaction(() -> {
            repository.lock(who.user());
            for (Object row : em().createNativeQuery("select id, instruction from pending_request where user_id = ?1 and"
                    + " status = 'PENDING' and tool = ?2 and instruction is not null and force = false order by id")
                    .setParameter(1, who.user()).setParameter(2, tool).getResultList()) {
                Object[] r = (Object[]) row;
                long id = ((Number) r[0]).longValue();
                if (instruction.equals(instruction(who.user(), id, (String) r[1]))) {
                    return read(who.user(), id);
                }
            }
            long id = ((Number) em().createNativeQuery("select nextval('pending_request_id_seq')").getSingleResult())
                    .longValue();
            em().createNativeQuery("insert into pending_request (id, user_id, tool, instruction, force, status, created_at)"
                    + " values (?1, ?2, ?3, ?4, false, 'PENDING', ?5)").setParameter(1, id).setParameter(2, who.user())
                    .setParameter(3, tool).setParameter(4, cipher.seal(instruction, place(who.user(), id)))
                    .setParameter(5, Instant.now()).executeUpdate();
            return read(who.user(), id);
        });
    }

    private String instruction(String user, long id, String stored) {
        return cipher.open(stored, place(user, id));
    }

    private static Place place(String user, long id) {
        return new Place(user, "pending_request", "instruction", String.valueOf(id));
    }

    /** The request, its row locked until the transaction ends; the user's profile is locked first, as a forget does. */
    private PendingRequest locked(String user, long id) {
        repository.lock(user);
        List<?> rows = em().createNativeQuery("select id from pending_request where user_id = ?1 and id = ?2 for update")
                .setParameter(1, user).setParameter(2, id).getResultList();
        if (rows.isEmpty()) {
            throw new PendingRequestNotFoundException(id);
        }
        return read(user, id);
    }

    private void decide(String user, long id, String status) {
        em().createNativeQuery("update pending_request set status = ?3, decided_at = ?4, instruction = null "
                + "where user_id = ?1 and id = ?2").setParameter(1, user).setParameter(2, id).setParameter(3, status)
                .setParameter(4, Instant.now()).executeUpdate();
    }

    private PendingRequest read(String user, long id) {
        List<PendingRequest> read = rows(user, em().createNativeQuery("select " + COLUMNS + FROM
                + " where r.user_id = ?1 and r.id = ?2").setParameter(1, user).setParameter(2, id).getResultList());
        if (read.isEmpty()) {
            throw new PendingRequestNotFoundException(id);
        }
        return read.get(0);
    }

    /** The user's requests as read, the fact's text and the instruction opened (stored sealed or, before, plain). */
    private List<PendingRequest> rows(String user, List<?> rows) {
        return rows.stream().map(Object[].class::cast).map(r -> {
            long id = ((Number) r[0]).longValue();
            return new PendingRequest(id, (String) r[1], r[2] == null ? null : ((Number) r[2]).longValue(),
                    cipher.open((String) r[3], Place.of(user, "profile_fact", "text")), (String) r[4],
                    PendingRequest.UNDO_TASK_PROMOTION.equals(r[1]) ? (Boolean) r[5] : null,
                    instruction(user, id, (String) r[6]), (String) r[7], instant(r[8]), instant(r[9]));
        }).toList();
    }

    private static Instant instant(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Instant i) {
            return i;
        }
        if (value instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        return ((Timestamp) value).toInstant();
    }

    private static EntityManager em() {
        return Panache.getEntityManager();
    }

    private static <T> T inTransaction(Supplier<T> work) {
        return ProfileUnavailableException.guard(() -> QuarkusTransaction.requiringNew().call(work::get));
    }
}

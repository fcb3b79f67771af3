package dev.mnemos.session;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How {@link RedisSessionStore} starts a session: a create, a create-if-absent and a fork each build a first
 * state and run one sequence ({@link #start}): reserve the id in the user's index (the cap on live sessions),
 * write version 1 in one script run that first checks the id is free, then index it.
 */
final class RedisSessionStarts {

    private final StateFields fields;
    private final PatchValidator validator;
    private final RedisSessionReads reads;
    private final RedisSessionWrites writes;
    private final RedisUserIndex index;

    RedisSessionStarts(SessionConfig config, StateFields fields, RedisSessionReads reads, RedisSessionWrites writes,
            RedisUserIndex index) {
        this.fields = fields;
        this.validator = new PatchValidator(config);
        this.reads = reads;
        this.writes = writes;
        this.index = index;
    }

    /** {@link SessionStore#create}. */
    SessionState create(NewSession request) {
        String userId = SessionIds.require("userId", request.userId());
        Idempotency idem = request.idempotency();
        String id = idem == null ? SessionIds.newId() : idem.derivedId("create", userId);
        SessionState state = initialState(id, userId, request.initial());
        SessionEvent event = new SessionEvent(1, SessionEvent.Type.CREATE, state.createdAt(), request.actor(), null,
                null, null, state);
        return SessionStoreUnavailableException.guard(() -> start(state, event, idem).orElseThrow(() -> taken(id)));
    }

    /** {@link SessionStore#createIfAbsent}: empty when the id is taken. */
    Optional<SessionState> createIfAbsent(String sessionId, NewSession request) {
        SessionState state = initialState(SessionIds.require("sessionId", sessionId), request.userId(),
                request.initial());
        SessionEvent event = new SessionEvent(1, SessionEvent.Type.CREATE, state.createdAt(), request.actor(), null,
                null, null, state);
        return SessionStoreUnavailableException.guard(() -> start(state, event, null));
    }

    /**
     * {@link SessionStore#fork}. With an owner, another user's session fails as a missing one, before anything
     * is written or answered.
     */
    SessionState fork(Fork request) {
        String sessionId = request.sessionId();
        Idempotency idem = request.idempotency();
        String owner = request.owner();
        String forkId = idem == null ? SessionIds.newId() : idem.derivedId("fork", sessionId);
        if (owner != null && idem != null) {
            requireOwner(sessionId, owner);
        }
        String prior = writes.priorResult(forkId, idem);
        if (prior != null) {
            return fields.read(fields.open(reads.sealingOwner(forkId), "idempotency", prior), SessionState.class);
        }
        SessionState source;
        try {
            source = reads.at(sessionId, request.fromVersion(), -1).state();
        } catch (RuntimeException e) {
            if (owner != null) {
                requireOwner(sessionId, owner);
            }
            throw e;
        }
        if (owner != null && !owner.equals(source.userId())) {
            throw new SessionNotFoundException(sessionId);
        }
        Instant now = RedisSessionWrites.now();
        SessionState fork = new SessionState(forkId, source.userId(), 1, now, now, SessionState.Status.ACTIVE,
                source.goal(), source.context(), source.constraints(), source.openQuestions(), source.collected(),
                source.stepPointer(), source.plans(), source.observations(), source.summary(),
                new ForkOrigin(sessionId, request.fromVersion()));
        SessionEvent event = new SessionEvent(1, SessionEvent.Type.FORK, now, request.actor(), null, null,
                request.fromVersion(), fork);
        return SessionStoreUnavailableException.guard(() -> start(fork, event, idem).orElseThrow(() -> taken(forkId)));
    }

    /**
     * Reserves the new session's id in its user's index, writes it (the check that the id is free and the
     * write are atomic) and indexes it. A keyed start whose key has a record answers the recorded session.
     *
     * @return the new state, or empty when the id is taken by a live session (nothing written, the index as
     *         it was)
     * @throws SessionEndedException when the id belongs to a session that ended and was archived (with a key:
     *         {@link IdempotencyKeyEndedException})
     */
    private Optional<SessionState> start(SessionState state, SessionEvent event, Idempotency idem) {
        String id = state.sessionId();
        boolean reserved = index.reserve(state.userId(), id, state.createdAt());
        long[] reply;
        try {
            reply = writes.rewrite(ScriptArgs.Mode.CREATE, state, OptionalLong.empty(), event, idem,
                    idem == null ? "" : fields.seal(state.userId(), "idempotency", fields.write(state)));
        } catch (SessionTooLargeException | UserBytesExceededException e) {
            // one too large or over its user's budget leaves the user's index as it was
            if (reserved) {
                index.unreserve(state.userId(), id);
            }
            throw e;
        }
        if (ScriptReply.KEY_USED.is(reply)) {
            return Optional.of(fields.read(fields.open(state.userId(), "idempotency", writes.recorded(id, idem)),
                    SessionState.class));
        }
        if (reply[0] < 0) {
            if (reserved) {
                index.unreserve(state.userId(), id);
            }
            if (ScriptReply.ARCHIVED.is(reply)) {
                throw idem == null ? new SessionEndedException(id) : new IdempotencyKeyEndedException(idem.key(), id);
            }
            return Optional.empty();
        }
        index.indexed(state.userId(), id, state.createdAt());
        return Optional.of(state);
    }

    private SessionState initialState(String sessionId, String userId, SessionPatch initial) {
        SessionIds.require("userId", userId);
        if (initial != null && !initial.isEmpty()) {
            validator.validate(initial);
        }
        SessionPatch patch = initial == null ? SessionPatch.builder().build() : initial.withIds(SessionIds::newId);
        Instant now = RedisSessionWrites.now();
        SessionState empty = new SessionState(sessionId, userId, 1, now, now, SessionState.Status.ACTIVE,
                null, null, List.of(), List.of(), Map.of(), null, List.of(), List.of(), null, null);
        return patch.applyTo(empty, 1, now);
    }

    private void requireOwner(String sessionId, String owner) {
        if (!owner.equals(reads.owner(sessionId))) {
            throw new SessionNotFoundException(sessionId);
        }
    }

    private static IllegalStateException taken(String id) {
        return new IllegalStateException("session " + id + " already exists");
    }
}

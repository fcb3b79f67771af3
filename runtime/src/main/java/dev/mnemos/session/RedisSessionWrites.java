package dev.mnemos.session;

import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * The writes of {@link RedisSessionStore} to live sessions, each one Lua script run (atomic, optionally a
 * compare-and-set): a step ({@code session-patch.lua}), a whole state ({@code session-rewrite.lua}: a
 * rollback, and the first version a {@link RedisSessionStarts} writes), the end of a session, and clearing
 * its keys. A keyed write records its key with the write; a repeat answers the recorded result. A write
 * beyond the session's grant asks its user's budget for more ({@link RedisUserBytes}) and runs again.
 */
final class RedisSessionWrites {

    private final RedisCalls calls;
    private final ScriptTransport transport;
    private final StateFields fields;
    private final PatchValidator validator;
    private final RedisSessionReads reads;
    private final RedisUserIndex index;
    private final RedisUserBytes bytes;
    private final RedisUnfinishedEnds ends;
    /** Whether the write scripts refuse to write while Redis runs an evicting policy ({@link RedisDurability}). */
    private final boolean refuseEvicting;

    RedisSessionWrites(RedisCalls calls, ScriptTransport transport, StateFields fields, RedisSessionReads reads,
            RedisUserIndex index, RedisUserBytes bytes, boolean refuseEvicting) {
        this.calls = calls;
        this.transport = transport;
        this.fields = fields;
        this.validator = new PatchValidator(calls.config);
        this.reads = reads;
        this.index = index;
        this.bytes = bytes;
        this.ends = new RedisUnfinishedEnds(calls.redis);
        this.refuseEvicting = refuseEvicting;
    }

    /** {@link SessionStore#apply}, blocking. */
    AppliedPatch apply(StepWrite write) {
        Step step = step(write, write.owner(), fields);
        long[] reply = patchReply(write, step);
        if (ScriptReply.KEY_USED.is(reply)) {
            // the first write's patch had other generated ids: report no time, so nothing is rebuilt from this one
            return new AppliedPatch(replayedVersion(write.sessionId(), write.idempotency()), step.patch(), null);
        }
        return new AppliedPatch(outcome(write.sessionId(), reply, write.expectedVersion().orElse(-1)), step.patch(),
                step.at());
    }

    /**
     * The step write without blocking: the same script, sent from the calling (event-loop) thread and
     * bounded by {@link SessionConfig#redisTimeout()}. A keyed write, whose replay needs a second read,
     * one that needs bytes from its user's budget, and, with encryption at rest, one whose owner or owner's data key
     * is not in memory yet, take the blocking path on a worker thread.
     */
    Uni<AppliedPatch> applyAsync(StepWrite write, Uni<AppliedPatch> onWorker) {
        if (write.idempotency() != null) {
            return onWorker;
        }
        String owner = write.owner() != null ? write.owner() : reads.knownOwner(write.sessionId());
        if (fields.sealing() && !fields.ready(owner)) {
            // sealing needs the session's owner (a Redis read) or their data key (read or made in Postgres): not on an
            // event loop
            return onWorker;
        }
        Step step;
        try {
            step = step(write, owner, fields.withoutBlocking());
        } catch (SessionValues.NotInMemoryException e) {
            // the owner's data key left memory since ready() (evicted, or an erase): read on a worker thread
            return onWorker;
        } catch (RuntimeException e) {
            return Uni.createFrom().failure(e);
        }
        return calls.bounded(calls.write(LuaScript.PATCH, LuaScript.PATCH.keys(write.sessionId()),
                patchArgs(write, step))).chain(reply -> {
                    long[] result = SessionScripts.longs(reply);
                    if (ScriptReply.NEEDS_BYTES.is(result)) {
                        // nothing was written: the blocking path asks the user's budget for bytes and writes
                        return onWorker;
                    }
                    return Uni.createFrom().item(new AppliedPatch(
                            outcome(write.sessionId(), result, write.expectedVersion().orElse(-1)), step.patch(), step.at()));
                });
    }

    /**
     * A validated patch with its generated ids, its time, its replay event and its script operations, and the user
     * whose key seals its texts (null when they are not sealed).
     */
    private record Step(SessionPatch patch, Instant at, SessionEvent event, String storedEvent, List<String> ops,
            String userId) {
    }

    /**
     * @param owner the session's owner when known (else read, when texts are sealed)
     * @param sealing the fields that seal its texts: {@link StateFields#withoutBlocking()} on an event loop
     */
    private Step step(StepWrite write, String owner, StateFields sealing) {
        validator.validate(write.patch());
        if (write.expectedVersion().isPresent() && write.expectedVersion().getAsLong() < 1) {
            throw new InvalidPatchException("expectedVersion", "a version of 1 or more");
        }
        SessionPatch withIds = write.patch().withIds(SessionIds::newId);
        Instant at = now();
        // the plan's content is stored once, as its body; the log entry refers to it (session-patch.lua)
        SessionEvent event = new SessionEvent(0, SessionEvent.Type.PATCH, at, write.actor(), write.note(),
                withIds.withoutPlanContent(), null, null);
        String userId = !fields.sealing() ? null : owner != null ? owner : reads.sealingOwner(write.sessionId());
        List<String> ops = PatchOps.of(withIds, at, sealing, userId);
        StepTraceEntry trace = write.trace();
        if (trace != null) {
            // the trace rides on the step's write (session-patch.lua, op T): one round trip, stored with it or not at all
            ops = new ArrayList<>(ops);
            ops.addAll(List.of("T", Integer.toString(trace.retention()), sealing.seal(userId, "trace", trace.json())));
        }
        return new Step(withIds, at, event, sealing.event(userId, event), ops, userId);
    }

    /**
     * Runs session-patch.lua, blocking, asking the user's budget for bytes while the session needs them.
     *
     * @return its reply: {version} or {errorCode, detail} ({@link ScriptReply})
     */
    private long[] patchReply(StepWrite write, Step step) {
        List<String> args = patchArgs(write, step);
        long[] reply = transport.write(LuaScript.PATCH, LuaScript.PATCH.keys(write.sessionId()), args);
        for (int i = 0; ScriptReply.NEEDS_BYTES.is(reply) && i < 3; i++) {
            String userId = write.owner() != null ? write.owner() : reads.owner(write.sessionId());
            bytes.topUp(write.sessionId(), userId, reply[1]);
            reply = transport.write(LuaScript.PATCH, LuaScript.PATCH.keys(write.sessionId()), args);
        }
        return reply;
    }

    private List<String> patchArgs(StepWrite write, Step step) {
        SessionConfig config = calls.config;
        return new ScriptArgs.Patch(write.expectedVersion().orElse(-1), config.ttl().toMillis(),
                step.storedEvent(), config.checkpointEvery(), config.historyRetention(),
                step.at().toEpochMilli(), write.owner() == null ? "" : write.owner(), config.maxSessionBytes(),
                bytes.budgeted(), refuseEvicting, actor(step.event()), step.ops(), ScriptArgs.key(write.idempotency()),
                ScriptArgs.fingerprint(write.idempotency()), "").argv();
    }

    private long replayedVersion(String sessionId, Idempotency idem) {
        return Long.parseLong(SessionStoreUnavailableException.guard(() -> recorded(sessionId, idem)));
    }

    /**
     * Marks the session ENDED with a last event, after adding it to the index of unfinished ends
     * ({@link RedisUnfinishedEnds}), which {@link #clear} leaves. @return the final state
     */
    SessionState end(String sessionId, String actor) {
        SessionState current = reads.load(sessionId, -1);
        if (current.status() == SessionState.Status.ENDED) {
            return current;
        }
        Instant at = now();
        // indexed first: a crash after the session is marked ENDED leaves it for the end sweep to finish
        ends.began(sessionId, at);
        SessionEvent event = new SessionEvent(0, SessionEvent.Type.END, at, actor, null, null, null, null);
        StepWrite write = StepWrite.of(sessionId, SessionPatch.builder().build());
        Step step = new Step(write.patch(), at, event, fields.event(current.userId(), event),
                List.of("S", "status", SessionState.Status.ENDED.name()), current.userId());
        outcome(sessionId, patchReply(write, step), -1);
        return reads.load(sessionId, -1);
    }

    /** {@link SessionStore#rollback}: a new version equal to the target; a stale base without an expected version retries. */
    SessionState rollback(Rollback request) {
        String sessionId = request.sessionId();
        Idempotency idem = request.idempotency();
        String prior = priorResult(sessionId, idem);
        if (prior != null) {
            return fields.read(fields.open(reads.sealingOwner(sessionId), "idempotency", prior), SessionState.class);
        }
        RedisReplayLog.At target = reads.at(sessionId, request.toVersion(), -1);
        Instant at = now();
        long base = request.expectedVersion().orElse(target.current());
        SessionState result = rewritten(target.state(), base + 1, at);
        try {
            long[] reply = SessionStoreUnavailableException.guard(() -> rewrite(ScriptArgs.Mode.REWRITE, result,
                    OptionalLong.of(base), new SessionEvent(0, SessionEvent.Type.ROLLBACK, at, request.actor(), null,
                            null, request.toVersion(), result),
                    idem, idem == null ? "" : fields.seal(result.userId(), "idempotency", fields.write(result))));
            if (ScriptReply.KEY_USED.is(reply)) {
                return fields.read(fields.open(result.userId(), "idempotency",
                        SessionStoreUnavailableException.guard(() -> recorded(sessionId, idem))), SessionState.class);
            }
        } catch (StaleVersionException e) {
            if (request.expectedVersion().isPresent()) {
                throw e;
            }
            return rollback(request);
        }
        return result;
    }

    /**
     * Runs session-rewrite.lua for a whole new state.
     *
     * @return the script's reply: {version}, or {@link ScriptReply#EXISTS} or {@link ScriptReply#ARCHIVED}
     *         when creating under a taken id, or {@link ScriptReply#KEY_USED} (all three: nothing was written)
     */
    long[] rewrite(ScriptArgs.Mode mode, SessionState state, OptionalLong expected, SessionEvent event,
            Idempotency idem, String result) {
        boolean creating = mode == ScriptArgs.Mode.CREATE;
        List<String> pairs = new ArrayList<>();
        fields.fields(state).forEach((field, value) -> {
            pairs.add(field);
            pairs.add(value);
        });
        SessionConfig config = calls.config;
        // the log entry names the plans' bodies (session-rewrite.lua): its event leaves their content out
        ScriptArgs.Rewrite args = new ScriptArgs.Rewrite(mode, expected.orElse(-1), config.ttl().toMillis(),
                fields.event(state.userId(), withoutPlanContent(event)), config.checkpointEvery(),
                config.historyRetention(),
                config.maxSessionBytes(), bytes.budgeted() ? 0 : -1, refuseEvicting, actor(event), pairs,
                ScriptArgs.key(idem), ScriptArgs.fingerprint(idem), result);
        if (creating && bytes.budgeted()) {
            args = args.withGrant(bytes.grant(state.userId(), state.sessionId(), estimate(args.argv())));
        }
        long[] reply = rewriteGranted(creating, state, args);
        if (ScriptReply.EXISTS.is(reply) || ScriptReply.ARCHIVED.is(reply) || ScriptReply.KEY_USED.is(reply)) {
            return reply;
        }
        outcome(state.sessionId(), reply, expected.orElse(-1));
        return reply;
    }

    /**
     * Runs session-rewrite.lua, asking the user's budget for more bytes while the session needs them: a
     * new session's grant grows in its grant argument, a live session's is recorded in it. When nothing
     * was written, a new session's grant goes back to its user.
     */
    private long[] rewriteGranted(boolean creating, SessionState state, ScriptArgs.Rewrite args) {
        ScriptArgs.Rewrite call = args;
        try {
            long[] reply = transport.write(LuaScript.REWRITE, state.sessionId(), call);
            for (int i = 0; ScriptReply.NEEDS_BYTES.is(reply) && i < 3; i++) {
                if (creating) {
                    call = call.withGrant(call.grant() + bytes.grant(state.userId(), state.sessionId(), reply[1]));
                } else {
                    bytes.topUp(state.sessionId(), state.userId(), reply[1]);
                }
                reply = transport.write(LuaScript.REWRITE, state.sessionId(), call);
            }
            if (reply[0] < 0) {
                returnGrant(creating, state, call);
            }
            return reply;
        } catch (UserBytesExceededException e) {
            returnGrant(creating, state, call);
            throw e;
        }
    }

    /** Gives back to the user what a new session that was not written had been granted. */
    private void returnGrant(boolean creating, SessionState state, ScriptArgs.Rewrite args) {
        if (creating && bytes.budgeted()) {
            bytes.giveBack(state.userId(), state.sessionId(), args.grant());
        }
    }

    /** What a new session's arguments will take in Redis, with room for the ids and names the script adds. */
    private static long estimate(List<String> argv) {
        long total = 1024;
        for (int i = 3; i < argv.size(); i++) {
            total += argv.get(i).length() + 16;
        }
        return total;
    }

    /**
     * The first result recorded for {@code idem}, confirmed by the replicas {@link ReplicaWaitConfig} asks for.
     *
     * @throws IdempotencyKeyReusedException when its request differed
     * @throws ReplicaWaitException when too few replicas confirmed the record
     */
    String recorded(String sessionId, Idempotency idem) {
        String record = calls.awaited(calls.reactive.hash(String.class).hget(SessionKeys.idempotency(sessionId),
                idem.key()));
        if (record == null) {
            throw new IllegalStateException("no idempotency record of " + idem.key() + " in session " + sessionId);
        }
        int split = record.indexOf('\n');
        if (!record.substring(0, split).equals(idem.fingerprint())) {
            throw new IdempotencyKeyReusedException(idem.key());
        }
        String result = record.substring(split + 1);
        // a replay is acknowledged as the first write would have been: once the replicas asked for hold the record
        calls.awaited(calls.replicaWait.confirm(calls.reactive, SessionKeys.idempotency(sessionId), idem.key(), record,
                recordedVersion(result), "the result of Idempotency-Key " + idem.key() + " is recorded on the Redis"
                        + " master"));
        return result;
    }

    /** The version a recorded result names: a step's is its version, a rollback's a state (0: not read here). */
    private static long recordedVersion(String result) {
        try {
            return Long.parseLong(result);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A keyed write that already has its record answers without touching anything else; else null. */
    String priorResult(String sessionId, Idempotency idem) {
        if (idem == null) {
            return null;
        }
        return SessionStoreUnavailableException.guard(() -> calls.redis.hash(String.class)
                .hexists(SessionKeys.idempotency(sessionId), idem.key()) ? recorded(sessionId, idem) : null);
    }

    /** Removes the session's keys and its id from its user's index; {@code ended}: leaves the ended marker. */
    void clear(String sessionId, boolean ended) {
        SessionStoreUnavailableException.guard(() -> {
            String userId = calls.redis.hash(String.class).hget(SessionKeys.state(sessionId), "userId");
            if (ended) {
                LuaScript.RETIRE.script().execute(calls.redis, LuaScript.RETIRE.keys(sessionId),
                        new ScriptArgs.Retire(calls.config.ttl().toMillis()).argv());
            } else {
                calls.redis.key().del(SessionKeys.all(sessionId).toArray(String[]::new));
            }
            ends.finished(sessionId);
            if (userId != null) {
                index.remove(userId, sessionId);
                bytes.release(userId, sessionId);
            }
            return null;
        });
    }

    private long outcome(String sessionId, long[] reply, long expected) {
        if (reply[0] > 0) {
            return reply[0];
        }
        throw ScriptReply.of(reply[0]).failure(sessionId, expected, reply[1], calls.config.maxSessionBytes());
    }

    /**
     * The event's actor as the write scripts take it, apart from its JSON, which leaves it out (StateFields.StoredEvent):
     * a replay entry names the session's own actor instead of repeating it ({@code replay_entry} in
     * {@code session-common.lua}). "" for none.
     */
    private static String actor(SessionEvent event) {
        return event.actor() == null ? "" : event.actor();
    }

    private static SessionEvent withoutPlanContent(SessionEvent event) {
        if (event.state() == null || event.state().plans().isEmpty()) {
            return event;
        }
        SessionState state = event.state().withPlans(event.state().plans().stream()
                .map(p -> p.withContent(null)).toList());
        return new SessionEvent(event.version(), event.type(), event.at(), event.actor(), event.note(), event.patch(),
                event.toVersion(), state);
    }

    private static SessionState rewritten(SessionState s, long version, Instant at) {
        return new SessionState(s.sessionId(), s.userId(), version, s.createdAt(), at, SessionState.Status.ACTIVE,
                s.goal(), s.context(), s.constraints(), s.openQuestions(), s.collected(), s.stepPointer(), s.plans(),
                s.observations(), s.summary(), s.forkedFrom());
    }

    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}

package dev.mnemos.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The arguments ({@code ARGV}) of each {@link LuaScript}: one record per script whose components are the
 * script's {@code -- ARGV:} header names in the same order; {@link #argv()} lists them that way. A list
 * component is the script's variable part ({@code ops...}), spread in place.
 */
sealed interface ScriptArgs {

    /** The script's ARGV, in header order. */
    List<String> argv();

    /** {@code session-load.lua}. {@code knownVersion} below 0: no known state (both known values left out). */
    record Load(int latestPlans) implements ScriptArgs {

        /** A read of the newest {@code latestPlans} plan versions (-1: all). */
        static Load latest(int latestPlans) {
            return new Load(latestPlans);
        }

        @Override
        public List<String> argv() {
            return List.of(Integer.toString(latestPlans));
        }
    }

    /** {@code session-plans.lua}. */
    record Plans(int from, int limit) implements ScriptArgs {
        @Override
        public List<String> argv() {
            return List.of(Integer.toString(from), Integer.toString(limit));
        }
    }

    /** {@code session-at.lua}. */
    record At(long version, int checkpointEvery, int retention, int latestPlans) implements ScriptArgs {
        @Override
        public List<String> argv() {
            return List.of(Long.toString(version), Integer.toString(checkpointEvery), Integer.toString(retention),
                    Integer.toString(latestPlans));
        }
    }

    /**
     * {@code session-patch.lua}. {@code owner} "" for any; {@code actor} the event's, which {@code eventJson} leaves out
     * ("" for none); {@code ops} the triples of {@link PatchOps}.
     */
    record Patch(long expectedVersion, long ttlMs, String eventJson, int checkpointEvery, int retention,
            long updatedAtMs, String owner, long maxSessionBytes, boolean budgeted, boolean refuseEvicting, String actor,
            List<String> ops, String idempotencyKey, String fingerprint, String result) implements ScriptArgs {
        @Override
        public List<String> argv() {
            List<String> argv = new ArrayList<>(ops.size() + 13);
            argv.add(Long.toString(expectedVersion));
            argv.add(Long.toString(ttlMs));
            argv.add(eventJson);
            argv.add(Integer.toString(checkpointEvery));
            argv.add(Integer.toString(retention));
            argv.add(Long.toString(updatedAtMs));
            argv.add(owner);
            argv.add(Long.toString(maxSessionBytes));
            argv.add(budgeted ? "1" : "0");
            argv.add(refuseEvicting ? "1" : "0");
            argv.add(actor);
            argv.addAll(ops);
            argv.add(idempotencyKey);
            argv.add(fingerprint);
            argv.add(result);
            return argv;
        }
    }

    /** What {@code session-rewrite.lua} writes: a new session, or a new version of a live one. */
    enum Mode {
        CREATE,
        REWRITE
    }

    /**
     * {@code session-rewrite.lua}. {@code grant} below 0: the session is not budgeted; {@code actor} the event's, which
     * {@code eventJson} leaves out ("" for none); {@code fields} the pairs of the new state ({@link StateFields#fields}).
     */
    record Rewrite(Mode mode, long expectedVersion, long ttlMs, String eventJson, int checkpointEvery, int retention,
            long maxSessionBytes, long grant, boolean refuseEvicting, String actor, List<String> fields,
            String idempotencyKey, String fingerprint, String result) implements ScriptArgs {

        Rewrite withGrant(long bytes) {
            return new Rewrite(mode, expectedVersion, ttlMs, eventJson, checkpointEvery, retention, maxSessionBytes,
                    bytes, refuseEvicting, actor, fields, idempotencyKey, fingerprint, result);
        }

        @Override
        public List<String> argv() {
            List<String> argv = new ArrayList<>(fields.size() + 12);
            argv.add(mode.name().toLowerCase(Locale.ROOT));
            argv.add(Long.toString(expectedVersion));
            argv.add(Long.toString(ttlMs));
            argv.add(eventJson);
            argv.add(Integer.toString(checkpointEvery));
            argv.add(Integer.toString(retention));
            argv.add(Long.toString(maxSessionBytes));
            argv.add(grant < 0 ? "" : Long.toString(grant));
            argv.add(refuseEvicting ? "1" : "0");
            argv.add(actor);
            argv.addAll(fields);
            argv.add(idempotencyKey);
            argv.add(fingerprint);
            argv.add(result);
            return argv;
        }
    }

    /** {@code session-retire.lua}. */
    record Retire(long ttlMs) implements ScriptArgs {
        @Override
        public List<String> argv() {
            return List.of(Long.toString(ttlMs));
        }
    }

    /** {@code session-grant.lua}. */
    record Grant(long bytes) implements ScriptArgs {
        @Override
        public List<String> argv() {
            return List.of(Long.toString(bytes));
        }
    }

    /** {@code session-scrub.lua}. */
    record Scrub(String replacement, List<String> texts) implements ScriptArgs {
        @Override
        public List<String> argv() {
            List<String> argv = new ArrayList<>(texts.size() + 1);
            argv.add(replacement);
            argv.addAll(texts);
            return argv;
        }
    }

    /** {@code user-reserve.lua}. */
    record Reserve(long score, String sessionId, long ttlMs) implements ScriptArgs {
        @Override
        public List<String> argv() {
            return List.of(Long.toString(score), sessionId, Long.toString(ttlMs));
        }
    }

    /** What {@code user-bytes.lua} does to a user's budget. */
    enum BudgetOp {
        GRANT,
        RETURN,
        RELEASE
    }

    /** {@code user-bytes.lua}. */
    record Budget(BudgetOp op, String sessionId, long bytes, long budget, long ttlMs) implements ScriptArgs {
        @Override
        public List<String> argv() {
            return List.of(op.name().toLowerCase(Locale.ROOT), sessionId, Long.toString(bytes), Long.toString(budget),
                    Long.toString(ttlMs));
        }
    }

    /** The idempotency key of a script's last three arguments ("" for none). */
    static String key(Idempotency idem) {
        return idem == null ? "" : idem.key();
    }

    /** The request fingerprint of a script's last three arguments ("" for none). */
    static String fingerprint(Idempotency idem) {
        return idem == null ? "" : idem.fingerprint();
    }
}

package dev.mnemos.server.mcp;

import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;

import java.util.Map;

import static dev.mnemos.server.mcp.Input.array;
import static dev.mnemos.server.mcp.Input.bool;
import static dev.mnemos.server.mcp.Input.dict;
import static dev.mnemos.server.mcp.Input.integer;
import static dev.mnemos.server.mcp.Input.number;
import static dev.mnemos.server.mcp.Input.object;
import static dev.mnemos.server.mcp.Input.oneOf;
import static dev.mnemos.server.mcp.Input.string;
import static dev.mnemos.server.mcp.Input.text;

/**
 * The input of every Mnemos MCP tool, by tool name. The shapes mirror the REST bodies
 * ({@code SessionRequests}, {@code SessionPatch}); lengths and item counts are left to the runtime's
 * own validators ({@code PatchValidator}, {@code FactValidator}), which name the field the same way.
 */
final class ToolInputs {

    /** For constraints: they bind the task; the profile only ever learns from observations. */
    static final String CONSTRAINT_SCOPE = "TASK = holds for this task only (\"this time\", \"today\", a budget for this trip). "
            + "STABLE = a standing rule of the user (\"I never fly at night\"). UNKNOWN = not clear. Constraints bind this "
            + "task and are never copied to the profile themselves; to carry a standing one over, also add_observation it.";
    /** For observations: the promotion gate at end_task. */
    static final String OBSERVATION_SCOPE = "TASK = holds for this task only: never promoted to the profile. STABLE = a "
            + "standing preference or fact: promoted at end_task when stated explicitly, else kept pending. UNKNOWN "
            + "(default) = let the words decide (\"from now on\", \"always\" → standing; \"this time\", \"today\" → task-only).";

    static final Input.Str SESSION_ID = string("The task's session id, as returned by start_task or list_tasks.")
            .matching("[A-Za-z0-9._@:-]{1,128}", "a session id: 1 to 128 characters of A-Z a-z 0-9 . _ @ : -");
    static final Input.Str SLOT = string("Optional profile slot the observation fills, e.g. output.language, "
            + "output.format, home.city; a new value on a slot replaces the old one in the profile.")
            .matching("[a-z][a-z0-9._-]{0,127}",
                    "a slot name such as output.language: lower-case letters, digits, . _ -, at most 128 characters");
    static final Input.Str ID = string("An item id as shown by get_task_state.").max(128);

    static final Input.Obj CONSTRAINT = object("A constraint the task must respect.")
            .required("text", text("The constraint in the user's words, e.g. \"budget 5000 this time\"."))
            .required("scope", oneOf(CONSTRAINT_SCOPE, Scope.values()))
            .optional("id", ID.withDescription("Give an existing constraint's id to replace it; omit for a new one."))
            .optional("source", string("Where it came from: user, agent, import …"));

    static final Input.Obj OBSERVATION = object("Something learned about the user: a candidate for the profile.")
            .required("text", text("The preference or fact, in the user's words where possible."))
            .optional("kind", oneOf("PREFERENCE (default), FACT or INSTRUCTION.", Observation.Kind.values()))
            .optional("scope", oneOf(OBSERVATION_SCOPE, Scope.values()))
            .optional("slot", SLOT)
            .optional("explicit", bool("true only when the user said it in so many words (\"from now on answer in Chinese\"); "
                    + "false (default) when you inferred it. Explicit standing statements are promoted at task end; "
                    + "inferred ones wait until seen in several tasks or confirmed by the user."))
            .optional("evidence", string("The user's words, or why you inferred it."))
            .optional("id", ID.withDescription("Give an existing observation's id to replace it; omit for a new one."));

    static final Input.Obj PATCH = object("The change this step makes; every field optional, at least one required. "
            + "Lists add items (an item with an existing id replaces it); remove* take ids or keys.")
            .optional("goal", string("Replaces the goal."))
            .optional("context", string("Replaces the background context."))
            .optional("summary", string("Replaces the rolling summary of earlier steps."))
            .optional("addConstraints", array("Constraints to add.", CONSTRAINT))
            .optional("removeConstraints", array("Ids of constraints to remove.", ID))
            .optional("putCollected", dict("Facts collected for the task, key → value (e.g. {\"month\": \"April\"}).",
                    string("The value.")))
            .optional("removeCollected", array("Keys of collected facts to remove.", ID))
            .optional("stepPointer", object("Where the task stands.")
                    .required("index", integer("Step index, 0 or more.", 0, Integer.MAX_VALUE))
                    .required("name", string("Step name, e.g. collect, plan, evaluate.")))
            .optional("addPlan", object("Appends the next plan version (versions are numbered 1, 2, …).")
                    .required("content", text("The plan text."))
                    .optional("score", number("Optional score 0–10.", 0, 10))
                    .optional("feedback", string("Optional feedback on it.")))
            .optional("evaluatePlan",
                    object("Scores an existing plan version; the evaluation is kept apart from the plan text.")
                            .required("version", integer("The plan version.", 1, Integer.MAX_VALUE))
                            .optional("score", number("Score 0–10.", 0, 10))
                            .optional("feedback", string("What to improve.")))
            .optional("addOpenQuestions", array("Questions still to ask the user.", text("A question.")))
            .optional("answerOpenQuestions", array("Open questions (their exact text) now answered.", text("A question.")))
            .optional("addObservations", array("Observations about the user (see add_observation).", OBSERVATION));

    /** The REST API's {@code Idempotency-Key} as an argument of every write tool; its syntax is that header's. */
    static final String IDEMPOTENCY_KEY = "idempotencyKey";
    static final Input.Str KEY = string("Optional: a key you choose for this write (a UUID, say) that makes retrying it "
            + "safe. The same key with the same arguments writes once and answers the first result again; the same key "
            + "with other arguments is an idempotency_key_reused error and writes nothing. Send one whenever a write may "
            + "be retried (a timeout, an unavailable error).").matching("[\\x21-\\x7E]{1,255}",
                    "1 to 255 visible ASCII characters");

    static final Input.Int VERSION = integer("A session version, 1 or more.", 1, Long.MAX_VALUE);
    static final Input.Int EXPECTED_VERSION = integer("The version you last read (get_task_state, or the version a "
            + "write returned). The write happens only if the session is still at this version; otherwise you get a "
            + "stale_version error with the current version. Always send it.", 1, Long.MAX_VALUE);

    private static final Map<String, Input.Obj> INPUTS = Map.ofEntries(
            Map.entry("list_tasks", object(null)
                    .optional("cursor", string("The nextCursor of the previous list_tasks answer, for the next page.").max(300))
                    .optional("limit", integer("Most ids to return, 1–200 (default 50).", 1, 200))),
            Map.entry("start_task", object(null)
                    .required("goal", text("What the user wants done, in their words."))
                    .optional("context", string("Background that helps (who, where, why)."))
                    .optional("constraints", array("Constraints known at the start.", CONSTRAINT))
                    .optional(IDEMPOTENCY_KEY, KEY)),
            Map.entry("get_task_state", object(null).required("sessionId", SESSION_ID)),
            Map.entry("get_memory_block", object(null)
                    .required("sessionId", SESSION_ID)
                    .optional("message", string("The user's message of this turn (for relevance and this turn's overrides)."))),
            Map.entry("record_step", object(null)
                    .required("sessionId", SESSION_ID)
                    .optional("expectedVersion", EXPECTED_VERSION)
                    .required("patch", PATCH)
                    .optional("note", string("A short note for the version history, e.g. \"collected dates\"."))
                    .optional(IDEMPOTENCY_KEY, KEY)),
            Map.entry("list_versions", object(null)
                    .required("sessionId", SESSION_ID)
                    .optional("fromVersion", integer("First version to list (default 1).", 1, Long.MAX_VALUE))
                    .optional("limit", integer("Most entries to return, 1–1000 (default 100).", 1, 1000))),
            Map.entry("get_version", object(null)
                    .required("sessionId", SESSION_ID)
                    .required("version", VERSION)),
            Map.entry("rollback_task", object(null)
                    .required("sessionId", SESSION_ID)
                    .required("toVersion", integer("The version whose content becomes current again.", 1, Long.MAX_VALUE))
                    .optional("expectedVersion", EXPECTED_VERSION)
                    .optional(IDEMPOTENCY_KEY, KEY)),
            Map.entry("fork_task", object(null)
                    .required("sessionId", SESSION_ID)
                    .required("fromVersion", integer("The version the new session starts from.", 1, Long.MAX_VALUE))
                    .optional(IDEMPOTENCY_KEY, KEY)),
            Map.entry("add_observation", object(null)
                    .required("sessionId", SESSION_ID)
                    .required("text", text("The preference or fact, in the user's words where possible."))
                    .optional("kind", oneOf("PREFERENCE (default), FACT or INSTRUCTION.", Observation.Kind.values()))
                    .optional("scope", oneOf(OBSERVATION_SCOPE, Scope.values()))
                    .optional("slot", SLOT)
                    .optional("explicit", bool("true only when the user said it in so many words "
                            + "(\"from now on answer in Chinese\"); false (default) when you inferred it."))
                    .optional("evidence", string("The user's words, or why you inferred it."))
                    .optional(IDEMPOTENCY_KEY, KEY)),
            Map.entry("end_task", object(null).required("sessionId", SESSION_ID)),
            Map.entry("get_profile", object(null)),
            Map.entry("remember", object(null)
                    .required("instruction", text("The user's instruction as they said it: \"remember I live in Shanghai\", "
                            + "\"from now on answer in Chinese\", \"I no longer eat meat\", \"forget that I live in Paris\"."))
                    .optional(IDEMPOTENCY_KEY, KEY)),
            Map.entry("forget_fact", object(null)
                    .required("factId", integer("The fact's id from get_profile.", 1, Long.MAX_VALUE))
                    .optional(IDEMPOTENCY_KEY, KEY)),
            Map.entry("list_pending_candidates", object(null)),
            Map.entry("confirm_candidate", object(null)
                    .required("candidateId",
                            integer("The candidate's id from list_pending_candidates or an end_task report.", 1,
                                    Long.MAX_VALUE))),
            Map.entry("undo_task_promotion", object(null)
                    .required("sessionId", SESSION_ID.withDescription("The ended task's session id, as end_task or "
                            + "list_tasks returned it."))
                    .optional("force", bool("true to undo even though later changes touched the same facts (the call "
                            + "failed with error \"conflict\" before): the later changes stay. Only when the user agreed."))),
            Map.entry("reject_candidate", object(null)
                    .required("candidateId", integer("The candidate's id from list_pending_candidates or an end_task report.",
                            1, Long.MAX_VALUE))));

    private ToolInputs() {
    }

    /** @throws IllegalArgumentException for a tool without an input definition (a programming error) */
    static Input.Obj of(String tool) {
        Input.Obj input = INPUTS.get(tool);
        if (input == null) {
            throw new IllegalArgumentException("no input definition for tool " + tool);
        }
        return input;
    }

    static java.util.Set<String> tools() {
        return INPUTS.keySet();
    }
}

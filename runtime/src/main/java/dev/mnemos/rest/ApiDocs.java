package dev.mnemos.rest;

/** Shared OpenAPI texts and examples of the REST API (constants, so annotations can use them). */
final class ApiDocs {

    private ApiDocs() {
    }

    static final String PROBLEM = Problem.MEDIA_TYPE;

    static final String BAD_REQUEST = "Invalid request: a field is missing, unknown, of the wrong type or out of range; "
            + "`field` names it.";
    static final String UNAUTHORIZED = "No valid bearer token.";
    static final String SESSION_NOT_FOUND = "No such session for this caller (another user's session answers 404 too).";
    static final String VERSION_NOT_FOUND = "No such session, or the version does not exist yet.";
    static final String STALE = "Conflict: `expectedVersion` is not the current version (the body's `currentVersion` "
            + "says which is), or the session has ended. Re-read and retry.";
    static final String ENDED = "Conflict: the session has ended.";
    static final String GONE = "The version is older than the retained history (`oldestVersion` says the oldest kept).";
    static final String TOO_LARGE = "The request body exceeds the configured limit (quarkus.mnemos.rest.max-body-bytes).";
    static final String REDIS_DOWN = "Session memory (Redis) is unreachable or timed out; always with Retry-After. "
            + "A refused connection wrote nothing; a timed-out write may or may not have been applied: retry it with "
            + "the same Idempotency-Key to apply it exactly once.";
    static final String KEY_ENDED = "The Idempotency-Key created a session that has since ended (its id is archived); nothing was written. A new key starts a new session.";
    static final String PROFILE_IDEMPOTENT = " Send an `Idempotency-Key` to make a retry safe: a repeat within "
            + "`quarkus.mnemos.profile.idempotency-ttl` (24 h) writes nothing and answers the first write's changes "
            + "(with the profile's facts as they are now).";
    static final String KEY_REUSED = "The Idempotency-Key was already used for a different request; nothing was written.";
    static final String TOO_MANY_SESSIONS = "The user already has the most live sessions allowed "
            + "(quarkus.mnemos.session.max-live-per-user, `maxLiveSessions`); nothing was written.";
    static final String NEXT_CURSOR = "Present when more items exist: pass it as `cursor` to read the next page.";
    static final String NEXT_LINK = "Present when more items exist: `<url of the next page>; rel=\"next\"`.";
    static final String POSTGRES_DOWN = "The profile store (Postgres) is unavailable or restarting: the request was not completed; a write cut off during its commit may still have been applied: retry it with the same `Idempotency-Key` (or re-read before retrying it). Retry after the `Retry-After` seconds.";
    static final String END_DOWN = "The profile store (Postgres) or session memory is unavailable: the session is kept "
            + "(nothing promoted, archived or cleared). Retry later.";
    static final String FACT_NOT_FOUND = "No such profile fact for this user.";
    static final String CANDIDATE_NOT_FOUND = "No such pending promotion candidate for this user.";
    static final String PROFILE_FULL = "Conflict: the profile already holds its maximum number of facts.";
    static final String FORBIDDEN_USER = "404 also when a user token names another user (only service tokens act for users).";

    static final String STEP_EXAMPLE = """
            {"expectedVersion": 3, "patch": {"putCollected": {"destination": "Lisbon"},
             "addOpenQuestions": ["Which dates?"]}, "note": "user named the destination"}""";
    static final String CREATE_EXAMPLE = """
            {"goal": "Plan a 3-day trip to Lisbon", "context": "travelling with a toddler",
             "constraints": [{"text": "budget under 1200 EUR", "scope": "TASK"}]}""";
    static final String FACT_EXAMPLE = """
            {"category": "PREFERENCE", "slot": "diet", "text": "vegetarian", "confidence": 0.9}""";
    static final String CONFLICT_EXAMPLE = """
            {"type": "about:blank", "title": "Conflict", "status": 409,
             "detail": "expectedVersion 3 is not the current version 4", "field": "expectedVersion", "currentVersion": 4}""";
    static final String UNAVAILABLE_EXAMPLE = """
            {"type": "about:blank", "title": "Service Unavailable", "status": 503,
             "detail": "session memory did not answer in time: the write may or may not have been applied; retry after 2 seconds with the same Idempotency-Key to apply it exactly once"}""";
}

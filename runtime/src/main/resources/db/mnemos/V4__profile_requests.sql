-- Idempotency records of profile writes: a write sent with an Idempotency-Key stores the key, a digest of the
-- request and the ids of the audit events it wrote, in the write's own transaction, so a write and its record
-- commit together or not at all. A repeat answers the recorded events (as the audit trail holds them now: a
-- forget removes their texts there) and writes nothing. No fact text is stored here.
create table profile_request (
    user_id     varchar(128) not null,
    idem_key    varchar(255) not null,
    -- SHA-256 (hex) of the request; null once the user forgot a fact (a digest of a text is a trace of it):
    -- the key then answers its record whatever request repeats it
    fingerprint char(64),
    path        varchar(16)  not null,
    event_ids   text         not null, -- the profile_event ids the write made, in order, comma-separated
    created_at  timestamptz  not null,
    primary key (user_id, idem_key)
);

create index profile_request_user_created on profile_request (user_id, created_at);

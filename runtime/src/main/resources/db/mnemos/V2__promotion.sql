-- Promotion at task end (DESIGN.md section 6): every decision about a session's candidates, and
-- the archive of ended sessions so their replay log outlives the Redis keys.

create table promotion_candidate (
    id             bigserial primary key,
    user_id        varchar(128)     not null,
    session_id     varchar(128)     not null,
    observation_id varchar(128),
    candidate_key  text             not null,
    slot           varchar(128),
    category       varchar(16)      not null,
    text           text             not null,
    confidence     double precision not null,
    status         varchar(16)      not null, -- PENDING, PROMOTED, CONFIRMED, REJECTED
    reason         text,
    embedding      bytea,           -- all-MiniLM-L6-v2 embedding of text, to recognise reworded repeats
    created_at     timestamptz      not null,
    decided_at     timestamptz
);

create index promotion_candidate_user_status on promotion_candidate (user_id, status);
create index promotion_candidate_user_key on promotion_candidate (user_id, candidate_key);
create index promotion_candidate_user_slot on promotion_candidate (user_id, slot);

create table session_archive (
    session_id  varchar(128) primary key,
    user_id     varchar(128) not null,
    ended_at    timestamptz  not null,
    final_state text         not null, -- JSON of the SessionState at its last version
    events      text         not null, -- JSON array of the SessionEvents, oldest first
    report      text         not null  -- JSON of the PromotionReport answered by the end call
);

create index session_archive_user on session_archive (user_id);

-- User profile: long-term facts about one user, and the audit trail of every change (DESIGN.md section 4).

-- One row per user whose profile has been written: every write path locks it (SELECT ... FOR UPDATE)
-- and bumps revision, which readers use to validate their cache.
create table profile_owner (
    user_id    varchar(128) primary key,
    revision   bigint       not null default 0,
    created_at timestamptz  not null default now()
);

create table profile_fact (
    id                bigserial primary key,
    user_id           varchar(128)     not null references profile_owner (user_id),
    category          varchar(16)      not null,
    slot              varchar(128),
    text              text             not null,
    confidence        double precision not null check (confidence >= 0 and confidence <= 1),
    evidence_count    integer          not null default 1 check (evidence_count >= 1),
    source_session_id varchar(128),
    source_kind       varchar(16)      not null,
    task_state        varchar(16),
    status            varchar(16)      not null,
    valid_from        timestamptz      not null,
    valid_to          timestamptz,
    created_at        timestamptz      not null,
    updated_at        timestamptz      not null,
    embedding         bytea
);

-- At most one ACTIVE fact per user and slot.
create unique index profile_fact_active_slot on profile_fact (user_id, slot) where status = 'ACTIVE' and slot is not null;
create index profile_fact_user_status on profile_fact (user_id, status);

create table profile_event (
    id         bigserial primary key,
    user_id    varchar(128) not null,
    fact_id    bigint,
    action     varchar(16)  not null,
    before     text,
    after      text,
    reason     text,
    actor      varchar(128) not null,
    session_id varchar(128),
    at         timestamptz  not null
);

create index profile_event_user_at on profile_event (user_id, id);
create index profile_event_fact on profile_event (fact_id);

-- Destructive MCP calls an agent made beyond its MCP session's budget (docs/mcp.md "Destructive tools"): held
-- for the user, who confirms each (which carries the call out, once) or rejects it, outside the agent, over
-- GET /v1/profile/pending-requests. What a call names: fact_id for forget_fact, session_id (and force) for
-- undo_task_promotion, instruction for a "forget …" remember. An instruction quotes what it forgets, so it is
-- removed from the row once the request is decided, and the row goes when a forget removes a text it quotes.
create table pending_request (
    id          bigserial    primary key,
    user_id     varchar(128) not null,
    tool        varchar(32)  not null,
    fact_id     bigint,
    session_id  varchar(128),
    force       boolean      not null default false,
    instruction text,
    status      varchar(16)  not null, -- PENDING, CONFIRMED, REJECTED
    created_at  timestamptz  not null,
    decided_at  timestamptz
);

create index pending_request_user on pending_request (user_id, status, id);

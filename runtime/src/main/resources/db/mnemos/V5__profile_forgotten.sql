-- Forget is final: a text the user forgot never comes back through a session end, a pending candidate or an
-- import, unless the user states it again. The text itself is not kept: each forgotten text leaves a keyed
-- digest of its normalised form (HMAC-SHA-256 of the user and the text, hex) to recognise it said again, and
-- its embedding (the one the fact had; null without embeddings) to recognise its rewordings. A statement of the
-- user that the row covers removes it.
create table profile_forgotten (
    id           bigserial    primary key,
    user_id      varchar(128) not null,
    digest       char(64)     not null,
    embedding    bytea,
    forgotten_at timestamptz  not null
);

create index profile_forgotten_user on profile_forgotten (user_id);

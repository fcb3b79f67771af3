-- Erasure of a user (docs/http-api.md "Erase and export"): every row and Redis key of the user is deleted; what
-- is kept is that an erasure happened, when, who asked ('user' for the user's own call, else the service token's
-- subject) and how many rows went. Nothing names the erased user, not even as a digest.
create table user_erasure (
    id        bigserial    primary key,
    actor     varchar(128) not null,
    erased_at timestamptz  not null,
    row_count bigint       not null
);

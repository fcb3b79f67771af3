-- Encryption at rest (docs/operations.md "Encryption at rest"): each user's data key, an AES-256 key that seals their
-- texts in every other table, stored only wrapped by the key-encryption key named key_id (which unwraps it). Created at
-- the user's first sealed write; an erase deletes it first, so the user's sealed values no longer open anywhere,
-- backups included. A rotation re-wraps the keys (key_id, wrapped, wrapped_at) and leaves the sealed values as they are.
create table user_data_key (
    user_id    varchar(128) primary key,
    key_id     varchar(128) not null,
    wrapped    bytea        not null,
    created_at timestamptz  not null default now(),
    wrapped_at timestamptz  not null default now()
);

create index user_data_key_key_id on user_data_key (key_id);

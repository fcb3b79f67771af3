#!/bin/sh
# Runs once, on the dev Postgres' first start (docker-entrypoint-initdb.d), as the superuser.
# Creates the two roles Mnemos uses (passwords from the mnemos-db secret, never from this file):
#   mnemos_owner  owns schema "mnemos" and runs Mnemos' Flyway migrations (the "migrate" init
#                 container of the Deployment). No superuser, no CREATEDB, no CREATEROLE.
#   mnemos_app    what the server runs as: USAGE on the schema and SELECT/INSERT/UPDATE/DELETE on
#                 the tables and sequences the owner creates (default privileges). No DDL at all.
# Prod: run the same statements once against the managed database as its admin user.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
     -v owner_pw="$MNEMOS_OWNER_PASSWORD" -v app_pw="$MNEMOS_APP_PASSWORD" <<'SQL'
create role mnemos_owner login nosuperuser nocreatedb nocreaterole noinherit password :'owner_pw';
create role mnemos_app   login nosuperuser nocreatedb nocreaterole noinherit password :'app_pw';
-- Keep the pool limits honest: each role may never exceed what the sizing arithmetic allows.
alter role mnemos_app connection limit 40;
alter role mnemos_owner connection limit 4;
revoke all on database mnemos from public;
grant connect on database mnemos to mnemos_owner, mnemos_app;
revoke create on schema public from public;
create schema mnemos authorization mnemos_owner;
grant usage on schema mnemos to mnemos_app;
alter default privileges for role mnemos_owner in schema mnemos
    grant select, insert, update, delete on tables to mnemos_app;
alter default privileges for role mnemos_owner in schema mnemos
    grant usage, select on sequences to mnemos_app;
SQL

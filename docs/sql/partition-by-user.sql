-- Mnemos' user-keyed tables as declarative hash partitions by user_id (docs/operations.md, "Scale-out past one
-- Postgres"). Run once, as the owner of Mnemos' tables, after Mnemos' migrations created them, with no Mnemos
-- instance running (it copies each table's rows):
--
--   psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -c 'set search_path = mnemos' -f partition-by-user.sql
--
-- (search_path: the schema Mnemos migrates into, the currentSchema of its JDBC URL.) Each table is renamed,
-- created again with the same columns, partitioned by hash of user_id into 16 partitions (change
-- `partitions` below; it cannot be changed later without repeating this), filled from the old table, which is
-- then dropped; its secondary indexes, its id sequence and the foreign key of profile_fact are carried over.
-- A partitioned table's primary key must contain the partition key, so the surrogate keys become composite:
-- Mnemos never looks a row of these tables up by id alone. Mnemos' later migrations run on the partitioned
-- tables as they would on plain ones (added columns and indexes reach every partition).
-- PartitionedByUserTest runs this file and every profile and promotion operation on the result.
begin;

do $$
declare
    partitions constant int := 16;
    t record;
    def text;
    defs text[];
    seq text;
begin
    for t in select * from (values
            ('profile_owner', 'user_id'),
            ('profile_fact', 'user_id, id'),
            ('profile_event', 'user_id, id'),
            ('profile_request', 'user_id, idem_key'),
            ('profile_forgotten', 'user_id, id'),
            ('promotion_candidate', 'user_id, id'),
            ('session_archive', 'user_id, session_id')) as tables(name, pk)
    loop
        if (select c.relkind from pg_class c where c.oid = t.name::regclass) = 'p' then
            raise notice '% is partitioned already', t.name;
            continue;
        end if;
        select coalesce(array_agg(pg_get_indexdef(i.indexrelid)), '{}') into defs
            from pg_index i where i.indrelid = t.name::regclass and not i.indisprimary;
        seq := case when exists (select 1 from pg_attribute a where a.attrelid = t.name::regclass and a.attname = 'id')
                    then pg_get_serial_sequence(t.name, 'id') end;
        execute format('alter table %I rename to %I', t.name, t.name || '_unpartitioned');
        execute format('create table %I (like %I including defaults including constraints) partition by hash (user_id)',
                t.name, t.name || '_unpartitioned');
        for r in 0 .. partitions - 1 loop
            execute format('create table %I partition of %I for values with (modulus %s, remainder %s)',
                    t.name || '_p' || r, t.name, partitions, r);
        end loop;
        execute format('insert into %I select * from %I', t.name, t.name || '_unpartitioned');
        if seq is not null then
            execute format('alter sequence %s owned by none', seq);
        end if;
        -- cascade: the foreign key of profile_fact to the old profile_owner goes with it, and is added again below
        execute format('drop table %I cascade', t.name || '_unpartitioned');
        execute format('alter table %I add constraint %I primary key (%s)', t.name, t.name || '_pkey', t.pk);
        if seq is not null then
            execute format('alter sequence %s owned by %I.id', seq, t.name);
        end if;
        foreach def in array defs loop
            execute def; -- the index definitions name the table, which has its old name again
        end loop;
    end loop;
    if not exists (select 1 from pg_constraint
            where conrelid = 'profile_fact'::regclass and conname = 'profile_fact_user_id_fkey') then
        alter table profile_fact add constraint profile_fact_user_id_fkey foreign key (user_id)
            references profile_owner (user_id);
    end if;
end
$$;

commit;

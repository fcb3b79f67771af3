package dev.mnemos.testsupport;

import dev.mnemos.session.SessionKeys;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.stream.StreamMessage;
import io.quarkus.redis.datasource.stream.StreamRange;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

/**
 * What Postgres and Redis really hold, read straight from them in tests: every row of every table in Mnemos'
 * schema as its text ({@code row::text}, so a column added later is searched too), and every value of every key of
 * a session (hash fields, stream entries, strings).
 */
public final class Holdings {

    private Holdings() {
    }

    /** The tables of Mnemos' schema, Flyway's history left out. */
    public static List<String> tables(DataSource db) throws Exception {
        return SqlRows.rows(db, "select table_name from information_schema.tables where table_schema = current_schema()"
                + " and table_type = 'BASE TABLE' and table_name not like 'flyway%' order by 1").stream()
                .map(r -> r.get(0)).toList();
    }

    /** Rows, per table, whose text holds {@code text} anywhere; only tables with hits are named. */
    public static Map<String, Long> dbHits(DataSource db, String text) throws Exception {
        Map<String, Long> hits = new LinkedHashMap<>();
        for (String table : tables(db)) {
            long n = SqlRows.count(db, "select count(*) from \"" + table + "\" x where strpos(x::text, ?) > 0", text);
            if (n > 0) {
                hits.put(table, n);
            }
        }
        return hits;
    }

    /** Rows, per table with a {@code user_id} column, that belong to {@code userId}; only tables with rows are named. */
    public static Map<String, Long> dbRows(DataSource db, String userId) throws Exception {
        Map<String, Long> rows = new LinkedHashMap<>();
        List<String> owned = SqlRows.rows(db, "select table_name from information_schema.columns where table_schema ="
                + " current_schema() and column_name = 'user_id' order by 1").stream().map(r -> r.get(0)).toList();
        for (String table : owned) {
            long n = SqlRows.count(db, "select count(*) from \"" + table + "\" where user_id = ?", userId);
            if (n > 0) {
                rows.put(table, n);
            }
        }
        return rows;
    }

    /** The Redis keys of these sessions (every family, the ended marker too). */
    public static List<String> sessionKeys(RedisDataSource redis, List<String> sessions) {
        List<String> keys = new ArrayList<>();
        for (String session : sessions) {
            keys.addAll(redis.key().keys(SessionKeys.state(session).replace(":state", ":*")));
        }
        return keys;
    }

    /** Redis' own bytes of a session: {@code MEMORY USAGE <key> SAMPLES 0} summed over its keys. */
    public static long sessionBytes(RedisDataSource redis, String sessionId) {
        long total = 0;
        for (String key : SessionKeys.all(sessionId)) {
            var usage = redis.execute("MEMORY", "USAGE", key, "SAMPLES", "0");
            total += usage == null ? 0 : usage.toLong();
        }
        return total;
    }

    /** Keys of these sessions, named with the number of their values that hold {@code text}; only keys with hits. */
    public static Map<String, Long> redisHits(RedisDataSource redis, List<String> sessions, String text) {
        Map<String, Long> hits = new LinkedHashMap<>();
        for (String key : sessionKeys(redis, sessions)) {
            long n = values(redis, key).stream().filter(v -> v.contains(text)).count();
            if (n > 0) {
                hits.put(key, n);
            }
        }
        return hits;
    }

    /**
     * Every key of the whole Redis whose name or one of whose values (a hash's field names too) holds {@code text},
     * named with the number of such names and values.
     */
    public static Map<String, Long> redisHitsAnywhere(RedisDataSource redis, String text) {
        Map<String, Long> hits = new LinkedHashMap<>();
        for (String key : redis.key().scan().toIterable()) {
            long n = (key.contains(text) ? 1 : 0) + values(redis, key).stream().filter(v -> v != null && v.contains(text))
                    .count();
            if (n > 0) {
                hits.put(key, n);
            }
        }
        return hits;
    }

    /** Every value of a key as text (a checkpoint's MessagePack keeps its strings' bytes as they are). */
    public static List<String> values(RedisDataSource redis, String key) {
        String type = redis.key().type(key).name();
        List<String> values = new ArrayList<>();
        switch (type) {
            case "HASH" -> redis.hash(String.class).hgetall(key).forEach((field, value) -> {
                values.add(field);
                values.add(value);
            });
            case "STREAM" -> {
                for (StreamMessage<String, String, String> m : redis.stream(String.class).xrange(key,
                        StreamRange.of("-", "+"))) {
                    values.addAll(m.payload().values());
                }
            }
            case "STRING" -> values.add(redis.value(String.class).get(key));
            case "ZSET" -> values.addAll(redis.sortedSet(String.class).zrange(key, 0, -1));
            default -> values.add("<" + type + ">");
        }
        return values;
    }
}

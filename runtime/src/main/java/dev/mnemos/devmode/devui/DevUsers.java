package dev.mnemos.devmode.devui;

import dev.mnemos.session.MnemosRedis;
import dev.mnemos.session.SessionKeys;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.keys.KeyScanArgs;
import io.quarkus.redis.datasource.keys.KeyScanCursor;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.TreeSet;

/**
 * Dev mode only: the users who have a session index in Redis (live sessions, or ones that ended recently): the
 * first {@value #LIMIT} in sort order. Read with a whole {@code SCAN}, which a development Redis answers quickly.
 */
@ApplicationScoped
public class DevUsers {

    public static final int LIMIT = 100;

    private final RedisDataSource redis;

    public DevUsers(@MnemosRedis RedisDataSource redis) {
        this.redis = redis;
    }

    public List<String> list() {
        KeyScanCursor<String> cursor = redis.key(String.class)
                .scan(new KeyScanArgs().match(SessionKeys.userSessionsPattern()).count(1000));
        TreeSet<String> users = new TreeSet<>();
        while (cursor.hasNext()) {
            for (String key : cursor.next()) {
                users.add(SessionKeys.userOfSessions(key));
                if (users.size() > LIMIT) {
                    users.pollLast();
                }
            }
        }
        return List.copyOf(users);
    }
}

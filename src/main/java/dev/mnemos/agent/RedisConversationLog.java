package dev.mnemos.agent;

import dev.mnemos.session.SessionConfig;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.redis.datasource.list.ListCommands;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * The recent messages of an agent session, for the intent router: a capped Redis list under the
 * session's hash tag ({@code mnemos:{s:<id>}:turns}), with the session's TTL. Appending costs the
 * same at message 10 and message 10,000.
 */
@ApplicationScoped
public class RedisConversationLog {

    private final ListCommands<String, String> lists;
    private final RedisDataSource redis;
    private final AgentConfig config;
    private final SessionConfig session;

    public RedisConversationLog(RedisDataSource redis, AgentConfig config, SessionConfig session) {
        this.redis = redis;
        this.lists = redis.list(String.class);
        this.config = config;
        this.session = session;
    }

    /** Records one exchange; the agent's reply is cut to {@link AgentConfig#historyReplyChars()}. */
    public void append(String sessionId, String message, String reply) {
        String key = key(sessionId);
        String cut = reply.length() > config.historyReplyChars() ? reply.substring(0, config.historyReplyChars()) + "…" : reply;
        lists.rpush(key, "user: " + message, "assistant: " + cut);
        lists.ltrim(key, -Math.max(1, config.historyMessages()), -1);
        redis.key().expire(key, session.ttl());
    }

    /** The most recent messages, oldest first; empty for a new session. */
    public List<String> recent(String sessionId) {
        return lists.lrange(key(sessionId), -Math.max(1, config.historyMessages()), -1);
    }

    public void clear(String sessionId) {
        redis.key().del(key(sessionId));
    }

    static String key(String sessionId) {
        return "mnemos:{s:" + sessionId + "}:turns";
    }
}

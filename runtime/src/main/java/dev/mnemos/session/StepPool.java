package dev.mnemos.session;

import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.eclipse.microprofile.config.Config;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionFactory;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.DefaultJedisSocketFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.util.JedisURIHelper;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/**
 * The pool behind {@link StepConnections}: whether the Quarkus client's Redis settings can be mirrored, and the
 * pool opened with them, of connections that can write commands before reading a reply ({@link Sending}).
 */
final class StepPool {

    private StepPool() {
    }

    /**
     * Why the pool cannot mirror the Quarkus client's Redis, or null when it can. Reads the default
     * Redis client's settings only.
     */
    static String unusable(Config quarkus) {
        Optional<String> type = quarkus.getOptionalValue("quarkus.redis.client-type", String.class);
        if (type.isPresent() && !type.get().equalsIgnoreCase("standalone")) {
            return "not used with client-type " + type.get();
        }
        if (quarkus.getOptionalValue("quarkus.redis.hosts-provider-name", String.class).isPresent()) {
            return "not used with a hosts provider";
        }
        if (quarkus.getOptionalValue("quarkus.redis.tls-configuration-name", String.class).isPresent()) {
            return "not used with a named TLS configuration";
        }
        if (quarkus.getOptionalValue("quarkus.redis.tcp.proxy-options.host", String.class).isPresent()) {
            return "not used through a proxy (quarkus.redis.tcp.proxy-options)";
        }
        Optional<String> hosts = quarkus.getOptionalValue("quarkus.redis.hosts", String.class);
        if (hosts.isEmpty() || hosts.get().isBlank()) {
            return "not used without quarkus.redis.hosts";
        }
        if (hosts.get().contains(",")) {
            return "not used with several hosts";
        }
        try {
            URI uri = new URI(hosts.get().trim());
            if (!JedisURIHelper.isValid(uri) || uri.getScheme() == null || !uri.getScheme().startsWith("redis")) {
                return "not used with " + uri.getScheme() + " URLs";
            }
            if (JedisURIHelper.isRedisSSLScheme(uri) && tlsSettings(quarkus)) {
                return "not used with TLS settings (quarkus.tls.*, quarkus.redis.tls.*): they trust only the JVM's default"
                        + " trust store";
            }
        } catch (URISyntaxException e) {
            return "not used: quarkus.redis.hosts is not a URL";
        }
        return null;
    }

    /** Whether Quarkus' TLS registry or the Redis client's own TLS options are configured. */
    private static boolean tlsSettings(Config quarkus) {
        for (String name : quarkus.getPropertyNames()) {
            if (name.startsWith("quarkus.tls.") || name.startsWith("quarkus.redis.tls")) {
                return true;
            }
        }
        return false;
    }

    /** The pool; it opens no connection. */
    static ConnectionPool open(URI uri, int database, Optional<String> password, SessionConfig config) {
        int millis = (int) Math.min(Integer.MAX_VALUE, config.redisTimeout().toMillis());
        DefaultJedisClientConfig.Builder client = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(millis).socketTimeoutMillis(millis)
                .database(database).ssl(JedisURIHelper.isRedisSSLScheme(uri))
                .clientName(config.stepPool().clientName()).clientSetInfoConfig(ClientSetInfoConfig.DISABLED);
        String user = JedisURIHelper.getUser(uri);
        String secret = Optional.ofNullable(JedisURIHelper.getPassword(uri)).or(() -> password).orElse(null);
        if (user != null) {
            client.user(user);
        }
        if (secret != null) {
            client.password(secret);
        }
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(config.stepPool().maxSize());
        pool.setMaxIdle(config.stepPool().maxSize());
        pool.setMinIdle(0);
        pool.setMaxWait(config.redisTimeout());
        pool.setBlockWhenExhausted(true);
        pool.setJmxEnabled(false);
        return new ConnectionPool(new SendingFactory(JedisURIHelper.getHostAndPort(uri), client.build()), pool);
    }

    /** A connection that can write the commands it was given before any reply is read ({@link #send()}). */
    static final class Sending extends Connection {

        Sending(JedisSocketFactory sockets, JedisClientConfig config) {
            super(sockets, config);
        }

        /** Writes the commands given so far to the socket (reading a reply would, first). */
        void send() {
            flush();
        }
    }

    /** Opens {@link Sending} connections, as Jedis' own factory opens plain ones for the same settings. */
    private static final class SendingFactory extends ConnectionFactory {

        private final JedisSocketFactory sockets;
        private final JedisClientConfig config;

        SendingFactory(HostAndPort at, JedisClientConfig config) {
            this(new DefaultJedisSocketFactory(at, config), config);
        }

        private SendingFactory(JedisSocketFactory sockets, JedisClientConfig config) {
            super(sockets, config);
            this.sockets = sockets;
            this.config = config;
        }

        @Override
        public PooledObject<Connection> makeObject() {
            return new DefaultPooledObject<>(new Sending(sockets, config));
        }
    }
}

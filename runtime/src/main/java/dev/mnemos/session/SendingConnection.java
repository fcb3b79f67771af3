package dev.mnemos.session;

import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionFactory;
import redis.clients.jedis.DefaultJedisSocketFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisSocketFactory;

/**
 * A Jedis connection that can write the commands given to it without reading a reply ({@link #send()}), so its
 * caller works while Redis answers ({@link StepConnections#sendEvalAndGet}).
 */
final class SendingConnection extends Connection {

    private SendingConnection(JedisSocketFactory sockets, JedisClientConfig config) {
        super(sockets, config);
    }

    /** Writes the commands sent so far to the socket (reading a reply would, first). */
    void send() {
        flush();
    }

    /** Opens these connections as Jedis' own factory opens plain ones for the same address and settings. */
    static final class Factory extends ConnectionFactory {

        private final JedisSocketFactory sockets;
        private final JedisClientConfig config;

        Factory(HostAndPort at, JedisClientConfig config) {
            this(new DefaultJedisSocketFactory(at, config), config);
        }

        private Factory(JedisSocketFactory sockets, JedisClientConfig config) {
            super(sockets, config);
            this.sockets = sockets;
            this.config = config;
        }

        @Override
        public PooledObject<Connection> makeObject() {
            return new DefaultPooledObject<>(new SendingConnection(sockets, config));
        }
    }
}

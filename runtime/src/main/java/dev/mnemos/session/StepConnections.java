package dev.mnemos.session;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.jboss.logging.Logger;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.util.JedisURIHelper;

import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Blocking Redis connections of Mnemos' own (a Jedis pool) for the calls every step makes on its calling
 * thread: the calling thread writes the command and reads the reply, with no hand-off to an event loop.
 * <p>
 * Used only when it reaches the same standalone Redis the Quarkus client does ({@code redis://} or
 * {@code rediss://} in {@code quarkus.redis.hosts}); any other set-up is refused at boot, naming
 * {@code quarkus.mnemos.session.step-pool.enabled=false}. Failures read as the Quarkus path's do: a
 * MicroProfile {@code TimeoutException} after {@link SessionConfig#redisTimeout()}, else a
 * {@link SessionStoreUnavailableException}. Why and what it saves: docs/benchmarks.md.
 */
@ApplicationScoped
@Startup // its gauges exist from boot, like every Mnemos meter
public class StepConnections {

    private static final Logger LOG = Logger.getLogger(StepConnections.class);

    /**
     * The pool, set up on a thread of its own from boot: Jedis' classes load there, not on the start-up path. It opens
     * no connection before use; the first call waits for it. Null when the step connections are off.
     */
    private final CompletableFuture<ConnectionPool> pool;
    private final Duration timeout;

    public StepConnections(SessionConfig config, Config quarkus, MeterRegistry registry) {
        this.timeout = config.redisTimeout();
        if (!config.stepPool().enabled()) {
            LOG.info("steps reach Redis through the Quarkus Redis client (quarkus.mnemos.session.step-pool.enabled=false)");
            this.pool = null;
            return;
        }
        String unusable = StepPool.unusable(quarkus);
        if (unusable != null) {
            throw new IllegalStateException("quarkus.mnemos.session.step-pool.enabled=true, but Mnemos' blocking step"
                    + " connections cannot reach Redis as the Quarkus client does (" + unusable + "): set"
                    + " quarkus.mnemos.session.step-pool.enabled=false to keep every call on the Quarkus Redis client");
        }
        URI uri = URI.create(quarkus.getValue("quarkus.redis.hosts", String.class).trim());
        // read here, so a database index that is not a number fails the start like the checks above
        int database = JedisURIHelper.getDBIndex(uri);
        Optional<String> password = quarkus.getOptionalValue("quarkus.redis.password", String.class);
        this.pool = CompletableFuture.supplyAsync(() -> {
            Objects.requireNonNull(Commands.OBJECTS); // Jedis' command builders load with the pool, off the start-up path
            return StepPool.open(uri, database, password, config);
        }, StepConnections::setUp);
        gauges(registry);
        LOG.debugf("steps reach Redis %s over up to %d blocking connections", JedisURIHelper.getHostAndPort(uri),
                config.stepPool().maxSize());
    }

    private static void setUp(Runnable task) {
        Thread thread = new Thread(task, "mnemos-step-pool");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * {@code mnemos.step.connections{state=active|idle|waiting}}: the connections in use, open and free, and steps waiting for
     * one (all 0 until the pool is set up).
     */
    private void gauges(MeterRegistry registry) {
        Gauge.builder("mnemos.step.connections", this, c -> c.count(GenericObjectPool::getNumActive)).tag("state", "active")
                .register(registry);
        Gauge.builder("mnemos.step.connections", this, c -> c.count(GenericObjectPool::getNumIdle)).tag("state", "idle")
                .register(registry);
        Gauge.builder("mnemos.step.connections", this, c -> c.count(GenericObjectPool::getNumWaiters))
                .tag("state", "waiting").register(registry);
    }

    private int count(ToIntFunction<GenericObjectPool<?>> gauge) {
        return pool.isDone() && !pool.isCompletedExceptionally() ? gauge.applyAsInt(pool.join()) : 0;
    }

    /** Whether steps use these connections (else the Quarkus client). */
    public boolean enabled() {
        return pool != null;
    }

    /**
     * Runs {@code script}; the reply as Jedis decodes it: a String, a Long, a List of them, or null.
     *
     * @param repeatable whether the script may run twice (it only reads, or its second run changes
     *        nothing): then it is sent again after meeting a broken connection
     */
    Object eval(SessionScripts script, List<String> keys, List<String> args, boolean repeatable) {
        return call(connection -> run(connection, script, keys, args), repeatable);
    }

    /**
     * Runs a read-only {@code script} and GETs {@code key} in one round trip: both commands are written, then both
     * replies read.
     */
    ScriptTransport.ReadAndGet evalAndGet(SessionScripts script, List<String> keys, List<String> args, String key) {
        return call(connection -> runAndGet(connection, script, keys, args, key), true);
    }

    /**
     * {@link #evalAndGet} in two halves: both commands are written to Redis now and both replies read by
     * {@link Sent#reply}, so that what the calling thread does between overlaps the round trip.
     * The connection stays with the read until then; a read whose replies were never read closes its connection.
     */
    Sent<ScriptTransport.ReadAndGet> sendEvalAndGet(SessionScripts script, List<String> keys,
            List<String> args, String key) {
        Connection connection = borrow();
        CommandObject<Object> eval;
        CommandObject<String> get;
        try {
            if (script.sha() == null) {
                script.loaded(connection.executeCommand(Commands.OBJECTS.scriptLoad(script.source())));
            }
            eval = Commands.OBJECTS.evalsha(script.sha(), keys, args);
            get = Commands.OBJECTS.get(key);
            connection.sendCommand(eval.getArguments());
            connection.sendCommand(get.getArguments());
            ((StepPool.Sending) connection).send();
        } catch (JedisException e) {
            connection.close();
            RuntimeException failure = failed(e);
            if (failure instanceof Broken) {
                // a read: sent again, on a new connection, when its reply is asked for
                return () -> evalAndGet(script, keys, args, key);
            }
            throw failure;
        }
        return new SentRead(connection, script, keys, args, eval, get, key);
    }

    /** A script and a GET written on {@link #connection}, their replies not read yet. */
    private final class SentRead implements Sent<ScriptTransport.ReadAndGet> {

        private final Connection connection;
        private final SessionScripts script;
        private final List<String> keys;
        private final List<String> args;
        private final CommandObject<Object> eval;
        private final CommandObject<String> get;
        private final String key;
        private boolean read;

        SentRead(Connection connection, SessionScripts script, List<String> keys, List<String> args,
                CommandObject<Object> eval, CommandObject<String> get, String key) {
            this.connection = connection;
            this.script = script;
            this.keys = keys;
            this.args = args;
            this.eval = eval;
            this.get = get;
            this.key = key;
        }

        @Override
        public ScriptTransport.ReadAndGet reply() {
            read = true;
            try {
                return on(connection, c -> replies(c, script, keys, args, eval, get));
            } catch (Broken e) {
                return retriedOnce(c -> runAndGet(c, script, keys, args, key));
            }
        }

        /** Its replies never read: the connection, holding them, is closed rather than given to another call. */
        @Override
        public void close() {
            if (!read) {
                connection.setBroken();
                connection.close();
            }
        }
    }

    private static ScriptTransport.ReadAndGet runAndGet(Connection connection, SessionScripts script, List<String> keys,
            List<String> args, String key) {
        if (script.sha() == null) {
            script.loaded(connection.executeCommand(Commands.OBJECTS.scriptLoad(script.source())));
        }
        CommandObject<Object> eval = Commands.OBJECTS.evalsha(script.sha(), keys, args);
        CommandObject<String> get = Commands.OBJECTS.get(key);
        connection.sendCommand(eval.getArguments());
        connection.sendCommand(get.getArguments());
        return replies(connection, script, keys, args, eval, get);
    }

    /** The replies of a script and a GET sent in one pipeline on {@code connection}. */
    private static ScriptTransport.ReadAndGet replies(Connection connection, SessionScripts script, List<String> keys,
            List<String> args, CommandObject<Object> eval, CommandObject<String> get) {
        // a pipeline hands an error reply back as a value, not thrown
        List<Object> replies = connection.getMany(2);
        if (replies.get(1) instanceof RuntimeException e) {
            throw e;
        }
        String value = get.getBuilder().build(replies.get(1));
        Object reply = replies.get(0);
        if (reply instanceof JedisNoScriptException) {
            reply = connection.executeCommand(Commands.OBJECTS.eval(script.source(), keys, args));
        } else if (reply instanceof RuntimeException e) {
            throw e;
        } else {
            reply = eval.getBuilder().build(reply);
        }
        return new ScriptTransport.ReadAndGet(reply, value);
    }

    /** Runs {@code script} by its SHA, loading it first when needed, and by its text when Redis lost it. */
    private static Object run(Connection connection, SessionScripts script, List<String> keys, List<String> args) {
        if (script.sha() == null) {
            script.loaded(connection.executeCommand(Commands.OBJECTS.scriptLoad(script.source())));
        }
        try {
            return connection.executeCommand(Commands.OBJECTS.evalsha(script.sha(), keys, args));
        } catch (JedisNoScriptException e) {
            return connection.executeCommand(Commands.OBJECTS.eval(script.source(), keys, args));
        }
    }

    /** ZADD {@code key} {@code score} {@code member}. */
    void zadd(String key, double score, String member) {
        call(connection -> connection.executeCommand(Commands.OBJECTS.zadd(key, score, member)), true);
    }

    /** The string at {@code key}, if any. */
    public Optional<String> get(String key) {
        return Optional.ofNullable(call(connection -> connection.executeCommand(Commands.OBJECTS.get(key)), true));
    }

    /**
     * Runs {@code command} on a connection of the pool. A connection that broke (Redis restarted, or
     * closed it) takes the pool's idle ones with it, as they were opened to the same Redis; a
     * repeatable command (a read) is then tried once more, on a new connection. Another is not: its
     * caller knows whether it may repeat it (the step's write-back does, with its idempotency key).
     */
    private <T> T call(Function<Connection, T> command, boolean repeatable) {
        try {
            return once(command);
        } catch (Broken e) {
            if (repeatable) {
                return retriedOnce(command);
            }
            throw e.failure;
        }
    }

    /** {@code command} on a new connection after one broke: a second break is the caller's failure. */
    private <T> T retriedOnce(Function<Connection, T> command) {
        try {
            return once(command);
        } catch (Broken again) {
            throw again.failure;
        }
    }

    private <T> T once(Function<Connection, T> command) {
        return on(borrow(), command);
    }

    /** A connection of the pool (waiting for the pool to be set up, the first time). */
    private Connection borrow() {
        try {
            return pool.join().getResource();
        } catch (RuntimeException e) {
            // no free connection in time, or none could be opened: the command was never sent
            throw new SessionStoreUnavailableException("Redis could not be reached (nothing was sent): " + e.getMessage(),
                    e, false);
        }
    }

    /** Runs {@code command} on {@code connection}, which goes back to the pool after (or is dropped when it broke). */
    private <T> T on(Connection connection, Function<Connection, T> command) {
        try (connection) {
            return command.apply(connection);
        } catch (JedisException e) {
            throw failed(e);
        }
    }

    /**
     * What a Jedis failure means for the caller: a MicroProfile {@code TimeoutException} when the reply did not
     * come in time, {@link Broken} when the connection broke (the pool's idle ones, opened to the same Redis,
     * are dropped with it), a script's error as {@link SessionScriptException}, else a
     * {@link SessionStoreUnavailableException}.
     */
    private RuntimeException failed(JedisException e) {
        if (!(e instanceof JedisConnectionException)) {
            return SessionScriptException.of("Redis did not answer: " + e.getMessage(), e);
        }
        if (timedOut(e)) {
            return new TimeoutException("mnemos session store: no answer from Redis within " + timeout.toMillis()
                    + " ms (" + e.getMessage() + ")");
        }
        pool.join().clear();
        return new Broken(new SessionStoreUnavailableException("Redis did not answer: " + e.getMessage(), e));
    }

    /** A call failed on a connection that broke (not a timeout). */
    private static final class Broken extends RuntimeException {
        final SessionStoreUnavailableException failure;

        Broken(SessionStoreUnavailableException failure) {
            super(failure.getMessage(), failure, false, false);
            this.failure = failure;
        }
    }

    /** The reply did not come within the socket's timeout. */
    private static boolean timedOut(JedisException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    void close(@Observes ShutdownEvent stop) {
        if (pool != null) {
            pool.thenAccept(ConnectionPool::close);
        }
    }

    /** Jedis' command builders: loading them costs a start-up as much as the pool, so it happens with the pool. */
    private static final class Commands {
        static final CommandObjects OBJECTS = new CommandObjects();
    }
}

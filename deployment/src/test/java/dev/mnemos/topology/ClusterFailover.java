package dev.mnemos.topology;

import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.TestRedisCluster;
import io.quarkus.redis.datasource.RedisDataSource;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Redis Cluster of three masters with a replica each, one master killed with {@code kill -9} under
 * {@link FailoverLoad}: the configuration a failover test starts its cluster and application with, and the run.
 */
final class ClusterFailover {

    /** How long a master may not answer before its replica takes over: short, so the test is. */
    static final Duration NODE_TIMEOUT = Duration.ofMillis(1000);

    private ClusterFailover() {
    }

    static TestRedisCluster cluster() {
        return new TestRedisCluster(1, NODE_TIMEOUT);
    }

    /**
     * Steps sessions on every master, kills the master of the first session's slot and waits for its replica to take
     * over; then starts the killed node again (it comes back as the new master's replica) and waits until it
     * replicates, so that a next run finds every master with a replica. With {@code restartUnderLoad}, the node is
     * started again while the clients step (a replica wait needs it back before that range acknowledges again),
     * else once they stopped.
     */
    static FailoverLoad.Result run(SessionStore store, RedisDataSource redis, boolean restartUnderLoad)
            throws InterruptedException {
        TestRedisCluster cluster = TestRedisCluster.started();
        FailoverLoad load = new FailoverLoad(store, 3);
        Map<String, Integer> slots = new HashMap<>();
        for (String id : load.sessions()) {
            slots.put(id, redis.execute("CLUSTER", "KEYSLOT", SessionKeys.state(id)).toInteger());
        }
        Map<String, Integer> masters = new HashMap<>();
        slots.forEach((id, slot) -> masters.put(id, cluster.masterOf(slot)));
        assertThat(Set.copyOf(masters.values())).as("the sessions' masters").hasSize(3);
        String first = load.sessions().get(0);
        int victim = masters.get(first);
        int slot = slots.get(first);
        Set<String> affected = masters.entrySet().stream().filter(e -> e.getValue() == victim).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
        FailoverLoad.Result result = load.run(Duration.ofMillis(1500), affected::contains, () -> cluster.kill(victim),
                () -> {
                    cluster.awaitTakenOver(victim, slot);
                    if (restartUnderLoad) {
                        cluster.restart(victim);
                    }
                }, Duration.ofSeconds(20));
        if (!restartUnderLoad) {
            cluster.restart(victim);
        }
        cluster.awaitReplicaInSync(victim);
        return result;
    }
}

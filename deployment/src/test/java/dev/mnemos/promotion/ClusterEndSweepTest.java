package dev.mnemos.promotion;

import dev.mnemos.session.NewSession;
import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import dev.mnemos.session.SessionKeys;
import dev.mnemos.session.SessionNotFoundException;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import dev.mnemos.session.TestRedisCluster;
import io.agroal.api.AgroalDataSource;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The end sweep on a three-master Redis Cluster (issue 49 item 3): sessions a crash left ENDED without an archive on
 * every master are all completed by one sweep, and sweeps running at once archive and promote each session once.
 * The timer is off ({@code end-sweep-interval=0}): the test runs the sweeps.
 */
class ClusterEndSweepTest {

    static final TestRedisCluster CLUSTER = new TestRedisCluster();
    static final int PER_MASTER = 4;

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(TestRedisCluster.class))
            .withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false")
            .overrideConfigKey("quarkus.mnemos.promotion.end-sweep-interval", "0")
            .overrideConfigKey("quarkus.mnemos.promotion.end-sweep-grace", "0s")
            .setBeforeAllCustomizer(() -> CLUSTER.start().forEach(ClusterEndSweepTest.APP::overrideConfigKey))
            .setAfterAllCustomizer(CLUSTER::stop);

    @Inject
    SessionStore store;
    @Inject
    EndSweep sweep;
    @Inject
    RedisDataSource redis;
    @Inject
    AgroalDataSource db;

    final String tag = UUID.randomUUID().toString();

    @Test
    void theIndexOfUnfinishedEndsSpreadsOverEveryMaster() {
        Set<Integer> masters = new HashSet<>();
        for (int b = 0; b < SessionKeys.UNFINISHED_END_BUCKETS; b++) {
            masters.add(master(SessionKeys.unfinishedEnds(b)));
        }
        assertThat(masters).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void oneSweepCompletesTheEndsACrashLeftOnEveryMaster() throws Exception {
        List<String> ids = crashedEnds();

        assertThat(sweep.sweep()).isEqualTo(ids.size());

        endedOnce(ids);
        assertThat(sweep.sweep()).as("a second sweep finds nothing left").isZero();
    }

    @Test
    void sweepsAtOnceArchiveAndPromoteEachSessionOnce() throws Exception {
        List<String> ids = crashedEnds();
        ExecutorService pods = Executors.newFixedThreadPool(3);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> sweeps = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                sweeps.add(pods.submit(() -> {
                    go.await();
                    return sweep.sweep();
                }));
            }
            go.countDown();
            int completed = 0;
            for (Future<Integer> s : sweeps) {
                completed += s.get(60, TimeUnit.SECONDS);
            }
            System.out.printf("ClusterEndSweepTest: 3 sweeps at once completed %d ends of %d sessions%n", completed,
                    ids.size());
            assertThat(completed).as("ends completed, each counted by the one sweep that archived it")
                    .isEqualTo(ids.size());
        } finally {
            pods.shutdownNow();
        }
        endedOnce(ids);
    }

    /**
     * {@link #PER_MASTER} sessions on each master, each with an observation to promote and each left ENDED without an
     * archive: the Redis half of {@code /end}, after which the process died.
     */
    private List<String> crashedEnds() {
        Map<Integer, Integer> onMaster = new HashMap<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; ids.size() < 3 * PER_MASTER; i++) {
            String user = "sweep-" + tag + "-" + i;
            SessionState created = store.create(NewSession.of(user, SessionPatch.builder().goal("trip " + i)
                    .addObservation(new Observation(null, "prefers aisle seats " + tag + " " + i,
                            Observation.Kind.PREFERENCE, Scope.STABLE, null, true, null))
                    .build()).by(user));
            String id = created.sessionId();
            if (onMaster.merge(master(SessionKeys.state(id)), 1, Integer::sum) > PER_MASTER) {
                store.delete(id);
                continue;
            }
            assertThat(store.end(id, user).status()).isEqualTo(SessionState.Status.ENDED);
            ids.add(id);
        }
        return ids;
    }

    /** Each session archived once, its observation promoted once, its keys and its index entry gone. */
    private void endedOnce(List<String> ids) throws Exception {
        Map<String, Long> archives = new HashMap<>();
        Map<String, Long> promotions = new HashMap<>();
        for (String id : ids) {
            archives.put(id, count("select count(*) from session_archive where session_id = ?", id));
            promotions.put(id, count("select count(*) from profile_event where session_id = ?", id));
            assertThatThrownBy(() -> store.get(id)).isInstanceOf(SessionNotFoundException.class);
            assertThat(redis.sortedSet(String.class).zscore(SessionKeys.unfinishedEndsOf(id), id)).isEmpty();
        }
        assertThat(archives).as("archive rows per session").hasSize(ids.size()).allSatisfy((id, n) -> assertThat(n)
                .isEqualTo(1));
        assertThat(promotions).as("promotion audit rows per session").hasSize(ids.size())
                .allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
    }

    private long count(String sql, String sessionId) throws Exception {
        try (Connection c = db.getConnection(); PreparedStatement q = c.prepareStatement(sql)) {
            q.setString(1, sessionId);
            try (ResultSet rows = q.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** Which of the three masters holds {@code key}: {@code redis-cli --cluster create} splits the slots in thirds. */
    private int master(String key) {
        long slot = redis.execute("CLUSTER", "KEYSLOT", key).toLong();
        return slot <= 5460 ? 0 : slot <= 10922 ? 1 : 2;
    }
}

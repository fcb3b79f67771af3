package dev.mnemos.session;

import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The session store unchanged on a real 3-master Redis Cluster: every script stays in one slot. */
class RedisClusterSessionTest {

    static final TestRedisCluster CLUSTER = new TestRedisCluster();

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(TestRedisCluster.class))
            .withConfigurationResource("mnemos-test.properties")
            .setBeforeAllCustomizer(() -> CLUSTER.start().forEach(RedisClusterSessionTest.APP::overrideConfigKey))
            .setAfterAllCustomizer(CLUSTER::stop);

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;

    @Test
    void sessionsSpreadOverTheNodesAndEveryOperationWorks() {
        String user = "u-" + SessionIds.newId();
        Set<Integer> thirds = new HashSet<>();
        List<String> ids = new ArrayList<>();
        for (int s = 0; s < 12; s++) {
            SessionState created = store.create(NewSession.of(user, SessionPatch.builder().goal("goal " + s).build()).by("t"));
            ids.add(created.sessionId());
            Set<Long> slots = new HashSet<>();
            for (String key : SessionKeys.all(created.sessionId())) {
                slots.add(redis.execute("CLUSTER", "KEYSLOT", key).toLong());
            }
            assertThat(slots).as("all keys of one session share one slot").hasSize(1);
            thirds.add((int) (slots.iterator().next() / 5462));
        }
        assertThat(thirds).as("sessions landed on more than one node").hasSizeGreaterThan(1);

        for (String id : ids) {
            for (int i = 0; i < 60; i++) {
                SessionPatch.Builder step = SessionPatch.builder().putCollected("k" + (i % 7), "v" + i);
                if (i % 20 == 0) {
                    step.addPlan("plan " + i, null, null);
                }
                store.apply(StepWrite.of(id, step.build()).expecting(i + 1).by("t"));
            }
            assertThatThrownBy(
                    () -> store.apply(StepWrite.of(id, SessionPatch.builder().goal("stale").build()).expecting(3).by("t"))
                            .version())
                    .isInstanceOf(StaleVersionException.class);
            SessionState current = store.get(id);
            assertThat(current.version()).isEqualTo(61);
            assertThat(SessionReplay.replay(null, store.events(id, 1, 1000))).isEqualTo(current);
            assertThat(store.at(id, 55).collected()).containsEntry("k4", "v53");
            assertThat(store.recent(id, 1).plans()).extracting(PlanVersion::content).containsExactly("plan 40");
            assertThat(store.rollback(Rollback.of(id, 10).by("t")).version()).isEqualTo(62);
            SessionState fork = store.fork(Fork.of(id, 30).by("t"));
            assertThat(fork.forkedFrom()).isEqualTo(new ForkOrigin(id, 30));
        }
        assertThat(store.liveSessions(user)).hasSize(24).containsAll(ids);
        ids.forEach(store::delete);
        assertThat(store.liveSessions(user)).hasSize(12);
    }
}

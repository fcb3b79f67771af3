package dev.mnemos.session;

import dev.mnemos.support.Failover;
import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * {@code quarkus.mnemos.session.replica-wait.replicas=1} against the machine's Redis, which has no replica: every
 * session write reaches the master and is answered as not confirmed, never as stored; a replayed Idempotency-Key is no
 * more confirmed than its first write. The Cluster failover tests show the wait doing its job
 * ({@code dev.mnemos.topology.ClusterFailoverTest}).
 */
@Tag(Failover.TAG)
class ReplicaWaitTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties"))
            .overrideRuntimeConfigKey("quarkus.mnemos.session.replica-wait.replicas", "1")
            .overrideRuntimeConfigKey("quarkus.mnemos.session.replica-wait.timeout", "20ms");

    @Inject
    SessionStore store;
    @Inject
    RedisDataSource redis;

    @Test
    void aWriteNoReplicaConfirmedIsWrittenButNotAcknowledged() {
        assertThat(redis.execute("INFO", "replication").toString()).as("the machine's Redis has no replica")
                .contains("connected_slaves:0");
        String user = "u-" + SessionIds.newId();
        String id = "rw-" + SessionIds.newId();

        assertThatThrownBy(() -> store.createIfAbsent(id, NewSession.of(user, SessionPatch.builder().goal("g").build())
                .by("t"))).isInstanceOfSatisfying(ReplicaWaitException.class, e -> {
                    assertThat(e.version()).isEqualTo(1);
                    assertThat(e.confirmed()).isZero();
                    assertThat(e.outcomeUnknown()).isTrue();
                    assertThat(e.getMessage()).contains("written on the Redis master as version 1",
                            "may be lost if that master fails over");
                });
        assertThatThrownBy(() -> store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("a", "1").build())))
                .isInstanceOfSatisfying(ReplicaWaitException.class, e -> assertThat(e.version()).isEqualTo(2));
        assertThatThrownBy(() -> store.applyAsync(StepWrite.of(id, SessionPatch.builder().putCollected("b", "2")
                .build())).await().indefinitely()).isInstanceOf(ReplicaWaitException.class);
        assertThat(store.get(id).version()).as("the master holds every write").isEqualTo(3);
        assertThat(store.get(id).collected()).containsEntry("a", "1").containsEntry("b", "2");

        for (int attempt = 0; attempt < 2; attempt++) {
            given().auth().oauth2(Tokens.user(user)).contentType(ContentType.JSON).header("Idempotency-Key", "k-" + id)
                    .body(Map.of("patch", Map.of("goal", "kept once"))).post("/v1/sessions/{id}/steps", id)
                    .then().statusCode(503).header("Retry-After", "2")
                    .body("reason", equalTo("redis-unreplicated"))
                    .body("writtenVersion", equalTo(4)).body("replicasConfirmed", equalTo(0))
                    .body("replicasAsked", equalTo(1)).body("detail", containsString("confirmed by 0 of the 1 replica"));
        }
        assertThat(store.get(id).version()).as("the keyed step, sent twice, is written once").isEqualTo(4);
        assertThat(store.get(id).goal()).isEqualTo("kept once");
    }
}

package dev.mnemos.promotion;

import dev.mnemos.session.SessionStore;
import dev.mnemos.support.Failover;
import dev.mnemos.support.RestApi;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Postgres fails over during 200 concurrent {@code /end}s with a real failover controller (issue 49 item 4): the load
 * and counts of {@link EndsThroughFailover} against pg_auto_failover ({@link TestPgAutoFailover}: a monitor, a primary
 * and its synchronous secondary), the application on the multi-host URL with {@code targetServerType=primary}. Midway
 * the primary's machine is lost ({@code kill -9} of its keeper and its Postgres) and the test only watches: the monitor
 * notices and promotes the secondary by itself. {@link PostgresFailoverTest} runs the same load with the test promoting
 * the standby. Fails (does not skip) without pg_autoctl.
 */
@Tag(Failover.TAG)
class PgAutoFailoverTest {

    static final TestRedisServer REDIS = new TestRedisServer();

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false")
            .overrideConfigKey("quarkus.mnemos.promotion.end-sweep-interval", "0")
            .overrideConfigKey("quarkus.mnemos.promotion.end-sweep-grace", "0s")
            .setBeforeAllCustomizer(() -> {
                TestPgAutoFailover.start().forEach(PgAutoFailoverTest.APP::overrideConfigKey);
                try {
                    REDIS.start().forEach(PgAutoFailoverTest.APP::overrideConfigKey);
                } catch (RuntimeException e) {
                    TestPgAutoFailover.stop();
                    throw e;
                }
            })
            .setAfterAllCustomizer(() -> {
                TestPgAutoFailover.stop();
                REDIS.stop();
            }),
            jar -> jar.addClasses(TestPostgres.class, TestPostgresPair.class, TestPgAutoFailover.class,
                    TestPgAutoFailover.Check.class,
                    TestRedisServer.class, EndsThroughFailover.class, EndsThroughFailover.Controller.class,
                    EndsThroughFailover.Ending.class));

    @Inject
    AgroalDataSource db;
    @Inject
    SessionStore store;
    @Inject
    EndSweep sweep;

    @Test
    void endsThroughAPrimaryLostMidwayArePromotedOnceAndNothingAcknowledgedIsLost() throws Exception {
        new EndsThroughFailover("PgAutoFailoverTest", db, store, sweep, new EndsThroughFailover.Controller() {
            @Override
            public long killPrimary() {
                return TestPgAutoFailover.killPrimary();
            }

            @Override
            public String failOver() {
                return TestPgAutoFailover.failOver();
            }
        }).run();
    }
}

package dev.mnemos.promotion;

import dev.mnemos.support.RestApi;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.observe;
import static dev.mnemos.testsupport.Calls.start;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * After Postgres restarts, the pool's connections to the old server are dead; the datasource validates a pooled
 * connection before lending it (quarkus.datasource.jdbc.validate-on-borrow, which the extension turns on), so the
 * first requests once Postgres is back are answered as all later ones, not with a 503 each. The test owns its
 * Postgres ({@link TestPostgres}), without the background validation that {@link PostgresFaultTest} runs with.
 */
class PostgresRestartTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings()
            // one exact text per user: no rewordings to find, so no embedding model to load
            .overrideConfigKey("quarkus.mnemos.profile.embeddings", "NONE")
            .setBeforeAllCustomizer(() -> withoutBackgroundValidation(TestPostgres.start())
                    .forEach(PostgresRestartTest.APP::overrideConfigKey))
            .setAfterAllCustomizer(TestPostgres::stop),
            jar -> jar.addClasses(TestPostgres.class));

    static Map<String, String> withoutBackgroundValidation(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.remove("quarkus.datasource.jdbc.background-validation-interval");
        return all;
    }

    @Test
    void theFirstEndsAfterARestartAreAnsweredAsAnyOther() throws Exception {
        List<String[]> sessions = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String user = "restart-" + UUID.randomUUID();
            String session = start(user);
            observe(user, session, "From now on, answer in French", null, true);
            sessions.add(new String[] { user, session });
        }
        // the pool holds several connections, as under load
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> reads = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                String user = sessions.get(i % sessions.size())[0];
                reads.add(clients.submit(() -> as(user).get("/v1/profile/history").statusCode()));
            }
            for (Future<Integer> read : reads) {
                assertThat(read.get()).isEqualTo(200);
            }
        } finally {
            clients.shutdownNow();
        }

        TestPostgres.stopServer("fast");
        TestPostgres.startServer(true);

        List<String> answers = new ArrayList<>();
        for (String[] s : sessions) {
            Response end = as(s[0]).post("/v1/sessions/{id}/end", s[1]);
            answers.add(end.statusCode() + (end.statusCode() == 200 ? "" : " " + end.asString()));
        }
        assertThat(answers).as("the ends after the restart").containsOnly("200");
    }
}

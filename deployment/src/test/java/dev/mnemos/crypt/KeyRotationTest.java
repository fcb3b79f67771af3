package dev.mnemos.crypt;

import dev.mnemos.profile.ProfileCache;
import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Holdings;
import dev.mnemos.testsupport.SqlRows;
import dev.mnemos.testsupport.Tokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import static dev.mnemos.testsupport.Calls.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * The key-encryption key SPI is enough: an application's own provider ({@link InMemoryKeys}: keys in memory, AES Key
 * Wrap) replaces the shipped one without any setting, and Mnemos seals with the data keys it wraps. Rotating its key
 * while profile writes go on loses no write, and every value written before opens once the old key is destroyed.
 */
class KeyRotationTest {

    static final String SCHEMA = System.getProperties().computeIfAbsent("mnemos.test.crypt-rotation-schema",
            k -> "mnemos_crypt_rot_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12)).toString();
    static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.llm.enabled", "false")
            .overrideConfigKey("quarkus.datasource.jdbc.url", URL + "?currentSchema=" + SCHEMA)
            .setAfterAllCustomizer(KeyRotationTest::dropSchema), jar -> jar.addClass(InMemoryKeys.class));

    private static final int WRITERS = 4;
    private static final int WRITES = 12;

    @Inject
    KeyEncryptionKeys keks;
    @Inject
    InMemoryKeys memory;
    @Inject
    KeyRotation rotation;
    @Inject
    DataKeys dataKeys;
    @Inject
    ProfileCache profiles;
    @Inject
    AgroalDataSource db;

    @Test
    void anApplicationsOwnProviderReplacesTheShippedOneAndSeals() throws Exception {
        String user = "mem-" + UUID.randomUUID();
        String tag = "m" + UUID.randomUUID().toString().substring(0, 8);

        write(user, "Has a locker at the gym " + tag);

        assertThat(keks).isInstanceOf(InMemoryKeys.class);
        assertThat(SqlRows.rows(db, "select key_id from user_data_key where user_id = ?", user))
                .containsExactly(List.of(memory.currentKeyId()));
        assertThat(Holdings.dbHits(db, tag)).isEmpty();
        assertThat(facts(user)).containsExactly("Has a locker at the gym " + tag);
    }

    @Test
    void rotationUnderConcurrentWritesLosesNoWriteAndOldValuesOpen() throws Exception {
        String tag = "r" + UUID.randomUUID().toString().substring(0, 8);
        List<String> users = new ArrayList<>();
        Queue<String[]> written = new ConcurrentLinkedQueue<>();
        for (int i = 0; i < 6; i++) {
            String user = "rot-" + UUID.randomUUID();
            users.add(user);
            written.add(new String[] { user, write(user, "Keeps a " + word() + " umbrella " + tag) });
        }
        String before = memory.currentKeyId();
        assertThat(SqlRows.count(db, "select count(*) from user_data_key where key_id = ?", before)).isEqualTo(6);

        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        CountDownLatch started = new CountDownLatch(WRITERS);
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            String own = "rot-new-" + UUID.randomUUID(); // a user whose data key is made during the rotation
            writers.add(pool.submit(() -> {
                started.countDown();
                for (int i = 0; i < WRITES; i++) {
                    String user = i % 3 == 0 ? own : users.get(ThreadLocalRandom.current().nextInt(users.size()));
                    written.add(new String[] { user, write(user, "Reads a " + word() + " novel " + tag) });
                }
                return null;
            }));
        }
        started.await();
        memory.rotateTo("mem-1");
        assertThat(operator().get("/v1/encryption").then().statusCode(200).body("keyId", equalTo("mem-1")).extract()
                .jsonPath().getLong("dataKeysToRewrap")).isGreaterThanOrEqualTo(6);
        // the operator's call, while the writers write (a user's token is refused)
        as(users.get(0)).post("/v1/encryption/rewrap").then().statusCode(403);
        long rewrapped = operator().post("/v1/encryption/rewrap").then().statusCode(200).extract().jsonPath()
                .getLong("rewrapped");
        for (Future<?> writer : writers) {
            writer.get();
        }
        pool.shutdown();
        // a key wrapped by mem-0 just before the switch and stored after the first pass
        rewrapped += operator().post("/v1/encryption/rewrap").then().statusCode(200).body("remaining", equalTo(0))
                .extract().jsonPath().getLong("rewrapped");
        assertThat(rewrapped).isGreaterThanOrEqualTo(6);
        assertThat(rotation.remaining()).isZero();
        operator().get("/v1/encryption").then().statusCode(200).body("dataKeysToRewrap", equalTo(0));

        memory.destroy(before);
        for (String[] write : written) {
            dataKeys.evict(write[0]);
            profiles.invalidate(write[0]);
        }
        for (String[] write : written) {
            assertThat(facts(write[0])).as("the facts of %s", write[0]).contains(write[1]);
        }
        assertThat(written).hasSize(6 + WRITERS * WRITES);
        assertThat(Holdings.dbHits(db, tag)).isEmpty();
    }

    private static String write(String user, String text) {
        as(user).body(Map.of("text", text)).post("/v1/profile/facts").then().statusCode(201);
        return text;
    }

    private static List<String> facts(String user) {
        return as(user).get("/v1/profile").then().statusCode(200).extract().jsonPath().getList("facts.text", String.class);
    }

    /** A word of its own for each fact, so no two are duplicates. */
    private static String word() {
        return UUID.randomUUID().toString().substring(0, 8).replaceAll("[0-9]", "q");
    }

    static void dropSchema() {
        try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
                Statement statement = connection.createStatement()) {
            statement.execute("drop schema if exists " + SCHEMA + " cascade");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static RequestSpecification operator() {
        return given().auth().oauth2(Tokens.operator("ops"));
    }
}

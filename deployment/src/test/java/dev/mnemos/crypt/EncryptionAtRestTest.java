package dev.mnemos.crypt;

import dev.mnemos.app.Actor;
import dev.mnemos.app.PendingRequests;
import dev.mnemos.profile.ProfileCache;
import dev.mnemos.profile.ProfileFact;
import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Holdings;
import dev.mnemos.testsupport.SqlRows;
import dev.mnemos.testsupport.Tokens;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.LogRecord;

import static dev.mnemos.testsupport.Calls.as;
import static dev.mnemos.testsupport.Calls.end;
import static dev.mnemos.testsupport.Calls.observe;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;

/**
 * Encryption at rest with the shipped provider ({@code quarkus.mnemos.encryption.key}), on the real Postgres in a
 * schema of this test's own: after a realistic profile task no Mnemos table holds one of its words in plain text, and
 * every API still answers them; a sealed value copied to another user's row does not open, and says so as
 * problem+json; after an erase, a dump taken before it and restored elsewhere holds nothing of the user that opens;
 * a plain value stored before encryption was on is read as it is and sealed when its row is written next.
 */
class EncryptionAtRestTest {

    static final String SCHEMA = System.getProperties().computeIfAbsent("mnemos.test.crypt-schema",
            k -> "mnemos_crypt_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12)).toString();
    static final String URL = "jdbc:postgresql://127.0.0.1:5432/test";
    static final String KEY = Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes());

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings()
            .overrideConfigKey("quarkus.datasource.jdbc.url", URL + "?currentSchema=" + SCHEMA)
            .overrideConfigKey("quarkus.mnemos.encryption.key", KEY)
            .overrideConfigKey("quarkus.mnemos.encryption.key-id", "k-test")
            .setAfterAllCustomizer(EncryptionAtRestTest::dropSchemas)
            .setLogRecordPredicate(r -> r.getLoggerName().equals(EncryptionStartLog.class.getName()))
            .assertLogRecords(records -> assertThat(records).extracting(LogRecord::getMessage).containsExactly(
                    "Mnemos memory in Postgres and session memory in Redis are encrypted at rest (AES-256-GCM, a data"
                            + " key per user, wrapped by the key-encryption key '%s')")));

    @Inject
    AgroalDataSource db;
    @Inject
    MemoryCipher cipher;
    @Inject
    EncryptionConfig config;
    @Inject
    PendingRequests pendingRequests;
    @Inject
    ProfileCache profiles;
    @Inject
    StoreSealing sealing;

    private String alice;
    private String bob;
    private String tag;

    @BeforeEach
    void users() {
        alice = "alice-" + UUID.randomUUID();
        bob = "bob-" + UUID.randomUUID();
        tag = "z" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    }

    @Test
    void noTableHoldsTheTasksWordsAndEveryApiStillAnswersThem() throws Exception {
        String ended = task(alice, tag);

        for (String word : List.of(tag, "kayak", "Bergen", "quiet hotels", "green tea", "lighthouse")) {
            assertThat(Holdings.dbHits(db, word)).as("rows holding '%s' in plain text", word).isEmpty();
        }
        assertThat(SqlRows.count(db, "select count(*) from profile_fact where user_id = ? and text like ?", alice,
                MemoryCipher.TEXT_MARK + "%")).isPositive();
        assertThat(SqlRows.count(db, "select count(*) from user_data_key where user_id = ? and key_id = 'k-test'", alice))
                .isEqualTo(1);

        JsonPath profile = as(alice).get("/v1/profile").then().statusCode(200).extract().jsonPath();
        assertThat(profile.getList("facts.text", String.class)).contains("Drinks green tea " + tag)
                .doesNotContain("Owns a red kayak " + tag);
        JsonPath history = as(alice).get("/v1/profile/history").then().statusCode(200).extract().jsonPath();
        assertThat(history.prettify()).contains("Drinks black tea " + tag);
        assertThat(as(alice).get("/v1/profile/pending").then().statusCode(200).extract().asString())
                .contains("quiet hotels " + tag);
        assertThat(as(alice).get("/v1/sessions/ended").then().statusCode(200).extract().jsonPath()
                .getList("goal", String.class)).containsExactly("Plan a kayak trip to Bergen " + tag);
        assertThat(as(alice).get("/v1/sessions/{id}/report", ended).then().statusCode(200).extract().asString())
                .contains(tag);
        assertThat(as(alice).get("/v1/profile/pending-requests").then().statusCode(200).extract().asString())
                .contains("forget the lighthouse tour " + tag);
        String export = as(alice).get("/v1/me/export").then().statusCode(200).extract().asString();
        assertThat(export).contains("Drinks green tea " + tag, "Plan a kayak trip to Bergen " + tag)
                .doesNotContain(MemoryCipher.TEXT_MARK);
    }

    @Test
    void aSealedValueCopiedToAnotherUsersRowDoesNotOpen() throws Exception {
        long aliceFact = fact(alice, "Collects old maps " + tag);
        long bobFact = fact(bob, "Collects stamps " + tag);
        try (Connection c = db.getConnection();
                PreparedStatement s = c.prepareStatement("update profile_fact set text = (select text from profile_fact"
                        + " where id = ?) where id = ?")) {
            s.setLong(1, aliceFact);
            s.setLong(2, bobFact);
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
        profiles.invalidate(bob);

        assertThatThrownBy(() -> QuarkusTransaction.requiringNew()
                .call(() -> ProfileFact.<ProfileFact> findById(bobFact).text))
                .isInstanceOf(SealedValueException.class)
                .hasMessage("a sealed value of profile_fact.text does not open: it was sealed for another user or place,"
                        + " or altered");
        as(bob).get("/v1/profile").then().statusCode(500).contentType("application/problem+json")
                .body("title", equalTo("Stored memory does not open")).body("place", equalTo("profile_fact.text"));
        as(alice).get("/v1/profile").then().statusCode(200);
    }

    @Test
    void afterAnEraseADumpTakenBeforeItHoldsNothingOfTheUserThatOpens() throws Exception {
        task(alice, tag);
        task(bob, tag + "b");
        Path dump = Files.createTempFile("mnemos-crypt", ".sql");
        // the backup practice docs/operations.md describes: the memory tables, the data keys kept apart
        run("pg_dump", "-h", "127.0.0.1", "-U", "postgres", "-n", SCHEMA, "--exclude-table=" + SCHEMA + ".user_data_key",
                "--no-owner", "-f", dump.toString(), "test");

        as(alice).delete("/v1/me").then().statusCode(200);
        assertThat(SqlRows.count(db, "select count(*) from user_data_key where user_id = ?", alice)).isZero();

        String restored = SCHEMA + "_restored";
        Files.writeString(dump, Files.readString(dump).replace(SCHEMA, restored));
        run("psql", "-h", "127.0.0.1", "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-q", "-f", dump.toString(), "test");
        Files.delete(dump);

        List<Sealed> aliceValues = sealedValues(restored, alice);
        List<Sealed> bobValues = sealedValues(restored, bob);
        // opened by a fresh Mnemos with the same key-encryption key: no data key cached, each read from Postgres
        MemoryCipher cipher = new MemoryCipher(new DataKeys(db, new ConfiguredKeyEncryptionKeys(config), config));
        assertThat(aliceValues).extracting(Sealed::table).contains("profile_fact", "profile_event",
                "promotion_candidate", "session_archive", "pending_request");
        for (Sealed value : aliceValues) {
            assertThatThrownBy(() -> cipher.open(value.stored(), value.place())).as(value.place().toString())
                    .isInstanceOf(SealedValueException.class).hasMessageContaining("has no data key");
        }
        assertThat(bobValues).isNotEmpty();
        for (Sealed value : bobValues) {
            assertThat(cipher.open(value.stored(), value.place())).as(value.place().toString()).isNotNull();
        }
    }

    @Test
    void aPlainValueIsReadAsItIsAndSealedWhenItsRowIsWrittenNext() throws Exception {
        long fact = fact(alice, "Drinks black tea " + tag);
        try (Connection c = db.getConnection();
                PreparedStatement s = c.prepareStatement("update profile_fact set text = ? where id = ?")) {
            s.setString(1, "Drinks black tea " + tag);
            s.setLong(2, fact);
            s.executeUpdate();
        }
        profiles.invalidate(alice);
        assertThat(as(alice).get("/v1/profile").then().statusCode(200).extract().jsonPath()
                .getList("facts.text", String.class)).containsExactly("Drinks black tea " + tag);

        as(alice).body(Map.of("text", "Drinks green tea " + tag)).put("/v1/profile/facts/{id}", fact).then().statusCode(200);

        assertThat(Holdings.dbHits(db, tag)).isEmpty();
        assertThat(as(alice).get("/v1/profile/history").then().statusCode(200).extract().asString())
                .contains("Drinks black tea " + tag, "Drinks green tea " + tag);
    }

    @Test
    void oneCallSealsEveryPlainValueAStoreHeldFromBeforeEncryptionWasOn() throws Exception {
        String ended = task(alice, tag);
        // alice's memory as a deployment without encryption stored it: every sealed value of hers opened in place
        int opened = openInPlace(alice);
        profiles.invalidate(alice);
        assertThat(Holdings.dbHits(db, tag)).as("plain rows before the pass").isNotEmpty();
        assertThat(sealing.remaining()).isEqualTo(opened);
        // the operator's way: the endpoint, with a token of the operator role (a user's or a service's is refused)
        as(alice).post("/v1/encryption/seal").then().statusCode(403);
        given().auth().oauth2(Tokens.service("backend")).post("/v1/encryption/seal").then().statusCode(403);
        assertThat(Holdings.dbHits(db, tag)).as("plain rows after the refused calls").isNotEmpty();
        operator().get("/v1/encryption").then().statusCode(200).body("encrypted", equalTo(true))
                .body("plainValues", equalTo(opened));

        operator().post("/v1/encryption/seal").then().statusCode(200).body("sealed", equalTo(opened))
                .body("remaining", equalTo(0));

        assertThat(sealing.remaining()).isZero();
        assertThat(Holdings.dbHits(db, tag)).as("rows holding the task's tag in plain text after the pass").isEmpty();
        operator().post("/v1/encryption/seal").then().statusCode(200).body("sealed", equalTo(0));
        assertThat(sealing.sealPostgres()).as("a second pass finds nothing to seal").isZero();
        assertThat(as(alice).get("/v1/profile").then().statusCode(200).extract().jsonPath()
                .getList("facts.text", String.class)).contains("Drinks green tea " + tag);
        assertThat(as(alice).get("/v1/profile/history").then().statusCode(200).extract().asString())
                .contains("Drinks black tea " + tag);
        assertThat(as(alice).get("/v1/sessions/{id}/report", ended).then().statusCode(200).extract().asString())
                .contains(tag);
        assertThat(as(alice).get("/v1/profile/pending-requests").then().statusCode(200).extract().asString())
                .contains("forget the lighthouse tour " + tag);
    }

    /**
     * A realistic profile task: a fact corrected (its superseded version kept), one forgotten, a keyed write, a session
     * with a goal whose statements are promoted or left pending at its end (archive, candidates, evidence), and a
     * "forget …" held for the user. Answers the ended session.
     */
    /** Opens every sealed value of the user in place, as a deployment without encryption stored it; answers how many. */
    private int openInPlace(String user) throws Exception {
        int opened = 0;
        try (Connection c = db.getConnection()) {
            for (StoreSealing.Column column : StoreSealing.COLUMNS) {
                String name = "\"" + column.column() + "\"";
                try (PreparedStatement read = c.prepareStatement("select " + column.key() + ", " + name + " from "
                        + column.table() + " where user_id = ? and " + name + " is not null");
                        PreparedStatement write = c.prepareStatement("update " + column.table() + " set " + name
                                + " = ? where " + column.key()
                                + (column.key().equals("id") ? " = cast(? as bigint)" : " = ?"))) {
                    read.setString(1, user);
                    try (ResultSet rs = read.executeQuery()) {
                        while (rs.next()) {
                            Place place = column.place(user, rs.getString(1));
                            if (column.bytes()) {
                                write.setBytes(1, cipher.open(rs.getBytes(2), place));
                            } else {
                                write.setString(1, cipher.open(rs.getString(2), place));
                            }
                            write.setString(2, rs.getString(1));
                            opened += write.executeUpdate();
                        }
                    }
                }
            }
        }
        return opened;
    }

    /** Bytes of the user's rows in every table that holds sealed values, and their data key's, as Postgres stores them. */
    private long rowBytes(String user) throws Exception {
        long bytes = 0;
        for (String table : StoreSealing.COLUMNS.stream().map(StoreSealing.Column::table).distinct().toList()) {
            bytes += SqlRows.count(db, "select coalesce(sum(pg_column_size(x.*)), 0) from " + table
                    + " x where user_id = ?", user);
        }
        return bytes + SqlRows.count(db, "select coalesce(sum(pg_column_size(x.*)), 0) from user_data_key x"
                + " where user_id = ?", user);
    }

    @Test
    void aUsersSealedRowsTakeAtMostAThirdMoreBytesThanPlainOnes() throws Exception {
        task(alice, tag);
        String trip = as(alice).body(Map.of("goal", "Two weeks in Norway in June " + tag)).post("/v1/sessions").then()
                .statusCode(201).extract().path("sessionId");
        for (int i = 0; i < 40; i++) {
            Map<String, Object> patch = new HashMap<>(Map.of("putCollected", Map.of("k" + i % 12,
                    "value " + i + " for the trip " + tag), "stepPointer", Map.of("index", i, "name", "research " + i)));
            if (i % 8 == 0) {
                patch.put("addPlan", Map.of("content", ("Day %d: the fjords near Bergen, then the train to Oslo %s%n"
                        .formatted(i, tag)).repeat(14)));
            }
            as(alice).body(Map.of("patch", patch)).post("/v1/sessions/{id}/steps", trip).then().statusCode(200);
        }
        end(alice, trip);
        long sealed = rowBytes(alice);

        long plain;
        try {
            openInPlace(alice);
            plain = rowBytes(alice) - SqlRows.count(db,
                    "select coalesce(sum(pg_column_size(x.*)), 0) from user_data_key x where user_id = ?", alice);
        } finally {
            sealing.sealPostgres(); // the other tests of the class count the schema's plain values
        }

        System.out.printf("alice's rows: %d bytes sealed, %d plain (%.2fx)%n", sealed, plain, (double) sealed / plain);
        assertThat((double) sealed / plain).as("sealed %d bytes against plain %d", sealed, plain).isLessThanOrEqualTo(1.3);
    }

    private String task(String user, String tag) {
        long tea = fact(user, "Drinks black tea " + tag);
        as(user).body(Map.of("text", "Drinks green tea " + tag)).put("/v1/profile/facts/{id}", tea).then().statusCode(200);
        long gone = as(user).header("Idempotency-Key", UUID.randomUUID().toString())
                .body(Map.of("text", "Owns a red kayak " + tag)).post("/v1/profile/facts").then().statusCode(201)
                .extract().jsonPath().getLong("changes[0].factId");
        as(user).delete("/v1/profile/facts/{id}", gone).then().statusCode(200);
        String session = as(user).body(Map.of("goal", "Plan a kayak trip to Bergen " + tag)).post("/v1/sessions").then()
                .statusCode(201).extract().path("sessionId");
        observe(user, session, "I prefer window seats " + tag, "I always take the window seat " + tag, true);
        observe(user, session, "I like quiet hotels " + tag, "I said so " + tag, false);
        end(user, session);
        pendingRequests.holdInstruction(Actor.self(user), "forget the lighthouse tour " + tag);
        return session;
    }

    private static long fact(String user, String text) {
        return as(user).body(Map.of("text", text)).post("/v1/profile/facts").then().statusCode(201).extract().jsonPath()
                .getLong("changes[0].factId");
    }

    record Sealed(String table, Place place, String stored) {
    }

    /** Every sealed text of the user in {@code schema}, with the place it is bound to. */
    private static List<Sealed> sealedValues(String schema, String user) throws Exception {
        List<Sealed> values = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(URL + "?currentSchema=" + schema, "postgres", "");
                Statement s = c.createStatement();
                ResultSet columns = s.executeQuery("select table_name, column_name from information_schema.columns"
                        + " where table_schema = '" + schema + "' and data_type = 'text'")) {
            List<String[]> texts = new ArrayList<>();
            while (columns.next()) {
                texts.add(new String[] { columns.getString(1), columns.getString(2) });
            }
            for (String[] column : texts) {
                String key = switch (column[0]) {
                    case "session_archive" -> "session_id";
                    case "pending_request" -> "id::text";
                    default -> "null";
                };
                try (PreparedStatement q = c.prepareStatement("select " + column[1] + ", " + key + " from " + column[0]
                        + " where user_id = ? and " + column[1] + " like ?")) {
                    q.setString(1, user);
                    q.setString(2, MemoryCipher.TEXT_MARK + "%");
                    try (ResultSet rows = q.executeQuery()) {
                        while (rows.next()) {
                            values.add(new Sealed(column[0], new Place(user, column[0], column[1], rows.getString(2)),
                                    rows.getString(1)));
                        }
                    }
                }
            }
        }
        return values;
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor()).as(String.join(" ", command) + ": " + output).isZero();
    }

    static void dropSchemas() {
        try (Connection connection = DriverManager.getConnection(URL, "postgres", "");
                Statement statement = connection.createStatement()) {
            statement.execute("drop schema if exists " + SCHEMA + " cascade");
            statement.execute("drop schema if exists " + SCHEMA + "_restored cascade");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static RequestSpecification operator() {
        return given().auth().oauth2(Tokens.operator("ops"));
    }
}

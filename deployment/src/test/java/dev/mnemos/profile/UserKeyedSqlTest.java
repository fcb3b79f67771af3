package dev.mnemos.profile;

import dev.mnemos.support.RestApi;
import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scale-out past one Postgres (docs/operations.md): the profile, candidate and archive tables can be distributed by
 * user because every statement Mnemos sends to them names {@code user_id}. The test drives every profile and
 * promotion operation over HTTP, records the SQL Hibernate sends, and fails on a statement without the key. The one
 * documented exception is reading an ended session by its id (the caller knows only the id).
 */
class UserKeyedSqlTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(RestApi.withServerSettings(),
            jar -> jar.addClasses(RecordedSql.class, EveryProfileOperation.class));

    private static final Pattern USER_TABLES = Pattern
            .compile("\\b(profile_fact|profile_event|profile_owner|profile_request|promotion_candidate|session_archive)\\b");
    /** Reads of one ended session by id: a fan-out on a distributed table, off the per-step path. */
    private static final Pattern ARCHIVE_BY_SESSION = Pattern
            .compile("^select .* from session_archive \\w+ where \\w+\\.session_id=\\?$");

    private final String user = "sql-" + UUID.randomUUID();

    @Test
    void everyProfileCandidateAndArchiveStatementNamesTheUser() {
        RecordedSql.start();
        List<String> sql;
        try {
            EveryProfileOperation.as(user);
        } finally {
            sql = RecordedSql.stop();
        }

        List<String> touched = sql.stream().map(s -> s.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").trim())
                .filter(s -> USER_TABLES.matcher(s).find()).toList();
        List<String> withoutKey = new ArrayList<>();
        List<String> archiveReads = new ArrayList<>();
        for (String s : touched) {
            if (keyed(s)) {
                continue;
            }
            if (ARCHIVE_BY_SESSION.matcher(s).matches()) {
                archiveReads.add(s);
            } else {
                withoutKey.add(s);
            }
        }
        // the operations below really reached every table (a recorder that saw nothing would pass vacuously)
        for (String table : List.of("profile_fact", "profile_event", "profile_owner", "profile_request",
                "promotion_candidate", "session_archive")) {
            assertThat(touched).as(table).anyMatch(s -> s.contains(table));
        }
        assertThat(touched).anyMatch(s -> s.startsWith("update profile_fact"));
        assertThat(touched).anyMatch(s -> s.startsWith("delete from profile_fact"));
        assertThat(withoutKey).as("statements without user_id").isEmpty();
        assertThat(archiveReads).isNotEmpty();
    }

    /** An insert that sets user_id, or a statement whose WHERE clause filters on it. */
    private static boolean keyed(String sql) {
        if (sql.startsWith("insert ")) {
            int values = sql.indexOf(" values ");
            return sql.substring(0, values < 0 ? sql.length() : values).contains("user_id");
        }
        int where = sql.indexOf(" where ");
        return where >= 0 && Pattern.compile("\\buser_id\\s*(=|in\\b)").matcher(sql.substring(where)).find();
    }
}

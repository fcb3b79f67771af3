package org.acme.packing;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * This app with a key-encryption key configured: session memory only ({@code quarkus-mnemos-session}) has no Postgres to
 * keep the users' wrapped data keys in, so the start fails and says why, rather than store session memory in clear
 * behind a setting that says it is encrypted.
 */
@Tag("built-apart") // a QuarkusUnitTest: not in the run of the @QuarkusTest classes (pom.xml)
class EncryptionKeyRefusedTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(PackingUsers.class).addAsResource("application.properties"))
            .overrideConfigKey("quarkus.mnemos.encryption.key",
                    Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes()))
            .assertException(start -> assertThat(messages(start))
                    .contains("quarkus.mnemos.encryption.key is set, but session memory only (quarkus-mnemos-session) has"
                            + " no Postgres to keep the users' data keys in"));

    @Test
    void theApplicationDoesNotStart() {
        fail("the application started with a key-encryption key and no Postgres for the data keys");
    }

    /** The messages of a failure and its causes, one after the other. */
    private static String messages(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }
}

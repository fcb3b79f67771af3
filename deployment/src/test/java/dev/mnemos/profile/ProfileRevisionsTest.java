package dev.mnemos.profile;

import dev.mnemos.erasure.UserErasure;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.StepTrace;
import dev.mnemos.injection.StepTraceStore;
import dev.mnemos.session.NewSession;
import dev.mnemos.session.SessionIds;
import dev.mnemos.session.SessionPatch;
import dev.mnemos.session.SessionStore;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.redis.datasource.RedisDataSource;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The copy of the profile revision in Redis: raised by every write before it returns, so a step
 * after the write sees it; trusted by a step whose cache holds that revision (no Postgres read);
 * offered back after a Postgres read; never lowered.
 */
class ProfileRevisionsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withConfigurationResource("mnemos-test.properties")
            .withApplicationRoot(
                    jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class));

    @Inject
    ProfileService profiles;
    @Inject
    ProfileRevisions revisions;
    @Inject
    ProfileRepository repository;
    @Inject
    ProfileConfig config;
    @Inject
    UserErasure erasure;
    @Inject
    RedisDataSource redis;
    @Inject
    SessionStore store;
    @Inject
    StepTraceStore traces;
    @Inject
    TripAi ai;
    @Inject
    ScriptedChatModel model;

    private String user;

    @BeforeEach
    void setUp() {
        model.reset();
        user = "u-" + SessionIds.newId();
    }

    private String copy() {
        return redis.value(String.class).get(ProfileRevisions.key(user));
    }

    private void add(String text) {
        profiles.add(user, "test", new NewFact(Category.PREFERENCE, null, text, 0.95));
    }

    /** One step of the AI service; the trace of the version it wrote. */
    private StepTrace step(String sessionId) {
        ai.chat(sessionId, "what next?");
        long version = store.get(sessionId).version();
        return traces.find(sessionId, version).orElseThrow();
    }

    @Test
    void everyWriteRaisesTheCopyBeforeItReturnsWithItsLifetime() {
        add("prefers window seats");
        long first = repository.revision(user);
        assertThat(copy()).isEqualTo(Long.toString(first));
        add("prefers quiet hotels");
        assertThat(copy()).isEqualTo(Long.toString(repository.revision(user))).isEqualTo(Long.toString(first + 1));
        assertThat(redis.key().pttl(ProfileRevisions.key(user))).isPositive()
                .isLessThanOrEqualTo(config.revisionMirrorTtl().toMillis());
    }

    /**
     * After an erasure the user's next profile never repeats a revision of the erased one: another pod that cached the
     * erased facts under such a revision would serve them again (issue 49 item 5).
     */
    @Test
    void aProfileWrittenAfterAnErasureStartsAboveTheErasedRevisions() {
        add("prefers window seats");
        add("prefers quiet hotels");
        long erased = repository.revision(user);
        erasure.erase(user, "test");
        assertThat(repository.revision(user)).isZero();
        add("travels with a bicycle");
        assertThat(repository.revision(user)).isGreaterThan(erased);
    }

    @Test
    void theCopyIsNeverLowered() {
        add("prefers window seats");
        long first = repository.revision(user);
        add("prefers quiet hotels");
        revisions.committed(new ProfileRevised(user, first));
        assertThat(copy()).isEqualTo(Long.toString(first + 1));
    }

    @Test
    void aStepTrustsTheCopyWhileItLivesAndReadsPostgresOnceItIsGone() {
        model.script(request -> "noted");
        add("prefers window seats");
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("plan a trip").build()).by("test"))
                .sessionId();
        StepTrace first = step(id);
        assertThat(first.read().profile()).isEqualTo(ProfileSnapshot.Status.LOADED);
        assertThat(first.read().profileFacts()).isEqualTo(1);

        add("prefers quiet hotels");
        String second = Long.toString(repository.revision(user));
        assertThat(step(id).read().profileFacts()).as("a step after the write sees it").isEqualTo(2);

        // a raise that did not reach Redis: the copy still names the second revision, whose facts the cache holds
        add("travels with a bicycle");
        String third = Long.toString(repository.revision(user));
        redis.value(String.class).set(ProfileRevisions.key(user), second);
        StepTrace stale = step(id);
        assertThat(stale.read().profileFacts()).as("served from the cache on the copy's word, no Postgres read")
                .isEqualTo(2);
        assertThat(stale.read().profileCache()).isEqualTo(ProfileSnapshot.Cache.HIT);

        // once the copy is gone (expired) the step reads the revision in Postgres and offers it back
        redis.key().del(ProfileRevisions.key(user));
        assertThat(step(id).read().profileFacts()).isEqualTo(3);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!third.equals(copy()) && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(copy()).as("offered back after the Postgres read").isEqualTo(third);
        assertThat(step(id).read().profileFacts()).isEqualTo(3);
    }

    @Test
    void everyStepOfASessionChecksTheCopyWithItsRead() {
        model.script(request -> "noted");
        add("prefers window seats");
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("plan a trip").build()).by("test"))
                .sessionId();

        step(id);
        step(id);
        add("prefers quiet hotels");
        StepTrace afterWrite = step(id);
        redis.key().del(ProfileRevisions.key(user));
        StepTrace withoutCopy = step(id);

        assertThat(afterWrite.read().profileFacts()).as("a write raised the copy the step read along").isEqualTo(2);
        assertThat(withoutCopy.read().profileFacts()).as("no copy: read from Postgres").isEqualTo(2);
        assertThat(withoutCopy.read().profileCache()).isEqualTo(ProfileSnapshot.Cache.HIT);
    }

    @Test
    void aUserWithoutProfileStepsWithAnEmptyOne() {
        model.script(request -> "noted");
        String id = store.create(NewSession.of(user, SessionPatch.builder().goal("plan a trip").build()).by("test"))
                .sessionId();
        assertThat(step(id).read().profileFacts()).isZero();
        assertThat(step(id).read().profileFacts()).isZero();
        assertThat(List.of(step(id).read().profile())).containsExactly(ProfileSnapshot.Status.LOADED);
    }
}

package dev.mnemos.injection.step;

import dev.mnemos.injection.ActingUser;
import dev.mnemos.injection.FakeSessionStore;
import dev.mnemos.injection.InjectionConfig;
import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.ProfileSnapshot;
import dev.mnemos.injection.ProfileSource;
import dev.mnemos.injection.States;
import dev.mnemos.injection.StepProfiles;
import dev.mnemos.injection.TestInjectionConfig;
import dev.mnemos.injection.TokenCounter;
import dev.mnemos.injection.TripAi;
import dev.mnemos.session.NoSessionArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A step sends its profile check before it reads its session ({@link StepProfiles#ahead}), so the two round trips
 * travel together, and takes that check's answer after the read; a check for another user than the session's owner
 * is not used.
 */
class ProfileAheadTest {

    private final FakeSessionStore store = new FakeSessionStore();
    /** What happened, in order: the profile source's calls and the store's reads. */
    private final List<String> events = new CopyOnWriteArrayList<>();
    private AiMethod chat;

    /** Knows every user's profile at once: one line naming the user, and says when each check is made and taken. */
    private final ProfileSource source = new ProfileSource() {
        @Override
        public ProfileSnapshot load(String userId) {
            events.add("load " + userId);
            return ProfileSnapshot.missing();
        }

        @Override
        public Optional<ProfileSnapshot> known(String userId) {
            events.add("known " + userId);
            return Optional.of(profileOf(userId));
        }

        @Override
        public Ahead ahead(String userId) {
            events.add("ahead " + userId);
            return () -> {
                events.add("taken " + userId);
                return Optional.of(profileOf(userId));
            };
        }
    };

    private static ProfileSnapshot profileOf(String userId) {
        return ProfileSnapshot.of(List.of(new ProfileLine("f1", "PREFERENCE", null, "fact of " + userId, 0.9)),
                ProfileSnapshot.Cache.HIT);
    }

    @BeforeEach
    void setUp() throws Exception {
        chat = AiMethod.of(TripAi.class.getMethod("chat", String.class, String.class));
        store.put(States.state("goal", List.of(), List.of(), null)); // session s-1, owned by u-1
        store.beforeRead = () -> events.add("read");
    }

    private LoadedStep load(ActingUser.Actor actor) {
        InjectionConfig config = new TestInjectionConfig();
        StepLoader loader = new StepLoader(store, new NoSessionArchive(), StepProfiles.unguarded(source), config,
                () -> actor, TokenCounter.estimate());
        return loader.load(chat, new Object[] { "s-1", "hello" }, actor);
    }

    @Test
    void theOwnersCheckIsSentBeforeTheSessionIsReadAndTakenAfter() {
        LoadedStep loaded = load(ActingUser.Actor.user("u-1"));

        assertThat(events).containsExactly("ahead u-1", "read", "taken u-1");
        assertThat(loaded.profile().facts()).extracting(ProfileLine::text).containsExactly("fact of u-1");
        assertThat(loaded.block().text()).contains("fact of u-1");
    }

    @Test
    void aStepActingForAnotherUserThanTheOwnerChecksTheOwnersProfileItself() {
        LoadedStep loaded = load(ActingUser.Actor.unrestricted("service"));

        assertThat(events).containsExactly("ahead service", "read", "known u-1");
        assertThat(loaded.profile().facts()).extracting(ProfileLine::text).containsExactly("fact of u-1");
        assertThat(loaded.block().text()).contains("fact of u-1").doesNotContain("fact of service");
    }
}

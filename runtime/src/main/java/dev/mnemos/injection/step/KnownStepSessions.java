package dev.mnemos.injection.step;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemos.injection.StepProfiles;
import dev.mnemos.session.Sent;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;

import java.util.Optional;

/**
 * Session reads that send nothing back while the session is still at the version this application's last
 * step on it wrote: that step's state is kept ({@link StepLoader#written}: the state it read plus the patch it
 * wrote, with the plans a read gives) and the store answers it itself when nothing else changed the session
 * ({@link SessionStore#recentIfChanged}). Every change of a session raises its version, so another writer in
 * between, a rollback, an end or a session started again under its id make it read as usual. The states
 * kept are bounded in characters (least recently stepped sessions forgotten first). The owner the kept state
 * names is the one its profile is checked for: the key its profile source names is read in the same round
 * trip as the session ({@link SessionStore#recentIfChanged(String, int, SessionState, String)}).
 */
final class KnownStepSessions implements StepSessions {

    private final SessionStore store;
    private final int plansShown;
    private final Cache<String, SessionState> known;
    private final StepProfiles profiles;

    KnownStepSessions(SessionStore store, int plansShown, long maxChars, StepProfiles profiles) {
        this.store = store;
        this.plansShown = plansShown;
        this.profiles = profiles;
        this.known = Caffeine.newBuilder().maximumWeight(maxChars).executor(Runnable::run)
                .weigher((String id, SessionState state) -> (int) Math.min(Integer.MAX_VALUE, id.length() + chars(state)))
                .build();
    }

    @Override
    public Sent<Read> send(String sessionId) {
        SessionState last = known.getIfPresent(sessionId);
        Optional<String> key = last == null ? Optional.empty() : profiles.knownBy(last.userId());
        if (key.isEmpty()) {
            return () -> new Read(SummaryFolder.needed(store, sessionId, plansShown,
                    store.recentIfChanged(sessionId, plansShown + 1, last)), null);
        }
        Sent<SessionStore.ReadAlong> sent = store.sendRecentIfChanged(sessionId, plansShown + 1, last, key.get());
        return new Sent<>() {
            @Override
            public Read reply() {
                SessionStore.ReadAlong read = sent.reply();
                SessionState state = SummaryFolder.needed(store, sessionId, plansShown, read.state());
                return new Read(state, read.read() ? new StepProfiles.Along(last.userId(), read.value()) : null);
            }

            @Override
            public void close() {
                sent.close();
            }
        };
    }

    @Override
    public void written(String sessionId, SessionState written) {
        if (written == null) {
            known.invalidate(sessionId);
        } else {
            known.put(sessionId, written);
        }
    }

    private static long chars(SessionState state) {
        long held = length(state.summary()) + length(state.goal()) + length(state.context());
        held += state.plans().stream().mapToLong(p -> length(p.content())).sum();
        return held + state.collected().values().stream().mapToLong(KnownStepSessions::length).sum();
    }

    private static long length(String text) {
        return text == null ? 0 : text.length();
    }
}

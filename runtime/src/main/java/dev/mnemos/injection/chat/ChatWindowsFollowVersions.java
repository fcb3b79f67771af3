package dev.mnemos.injection.chat;

import dev.mnemos.session.SessionForked;
import dev.mnemos.session.SessionRolledBack;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * A session's chat windows follow its versions: a rollback sets them back to what the model had seen at the version
 * rolled back to, and a fork starts with the windows of the version it forks from. Without it the model would go on
 * seeing the turns a rollback undid.
 */
@ApplicationScoped
class ChatWindowsFollowVersions {

    private final RedisChatMemoryStore windows;

    ChatWindowsFollowVersions(RedisChatMemoryStore windows) {
        this.windows = windows;
    }

    void rolledBack(@Observes SessionRolledBack rollback) {
        windows.rewind(rollback.sessionId(), rollback.toVersion(), rollback.newVersion());
    }

    void forked(@Observes SessionForked fork) {
        windows.copy(fork.sourceId(), fork.fromVersion(), fork.forkId());
    }
}

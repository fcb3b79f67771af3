package dev.mnemos.app;

import dev.mnemos.session.SessionEvent;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;

/** One line of a session's version history. */
@Schema(name = "SessionVersionEntry")
public record SessionVersionEntry(long version, SessionEvent.Type type, Instant at, String actor, String note,
        Long toVersion) {

    static SessionVersionEntry of(SessionEvent event) {
        return new SessionVersionEntry(event.version(), event.type(), event.at(), event.actor(), event.note(),
                event.toVersion());
    }
}

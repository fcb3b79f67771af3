package dev.mnemos.app;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The answer to a write: the session and the version the write created. */
@Schema(name = "SessionWriteResult", description = "The session and the version the write created.", example = """
        {"sessionId": "s-6f1c2a", "version": 4}""")
public record SessionWriteResult(String sessionId, long version) {
}

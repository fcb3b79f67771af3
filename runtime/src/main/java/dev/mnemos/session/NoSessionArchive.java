package dev.mnemos.session;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Optional;

/** Used when no archive is installed: ended sessions are simply gone. */
@DefaultBean
@ApplicationScoped
public class NoSessionArchive implements SessionArchive {

    @Override
    public Optional<Archived> find(String sessionId) {
        return Optional.empty();
    }
}

package dev.mnemos.archive;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.injection.BlockText;
import dev.mnemos.profile.FactForgotten;
import io.quarkus.hibernate.orm.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * When a profile fact is forgotten, blanks its text out of the user's archived sessions (final
 * state, replay log, report and step traces). Runs inside the forgetting transaction.
 */
@ApplicationScoped
public class ArchiveScrubber {

    /** What replaces a forgotten text in the archive. */
    private static final String FORGOTTEN = "[forgotten]";

    private final ObjectMapper json;

    public ArchiveScrubber(ObjectMapper json) {
        this.json = json;
    }

    void onForget(@Observes FactForgotten fact) {
        String escaped = escaped(fact.text());
        Panache.getEntityManager().createNativeQuery("update session_archive set final_state = replace(final_state, ?1, ?2),"
                + " events = replace(events, ?1, ?2), report = replace(report, ?1, ?2), traces = replace(traces, ?1, ?2)"
                + " where user_id = ?3 and (strpos(final_state, ?1) > 0 or strpos(events, ?1) > 0"
                + " or strpos(report, ?1) > 0 or strpos(coalesce(traces, ''), ?1) > 0)")
                .setParameter(1, escaped).setParameter(2, FORGOTTEN).setParameter(3, fact.userId()).executeUpdate();
        // in a trace the text sits inside the memory block, quoted by the block first and by JSON then
        String quoted = BlockText.quote(fact.text());
        String inBlock = escaped(quoted.substring(1, quoted.length() - 1));
        Panache.getEntityManager().createNativeQuery("update session_archive set traces = replace(traces, ?1, ?2)"
                + " where user_id = ?3 and strpos(traces, ?1) > 0")
                .setParameter(1, inBlock).setParameter(2, FORGOTTEN).setParameter(3, fact.userId()).executeUpdate();
    }

    /** The text as it appears inside a JSON string. */
    private String escaped(String text) {
        try {
            String quoted = json.writeValueAsString(text);
            return quoted.substring(1, quoted.length() - 1);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}

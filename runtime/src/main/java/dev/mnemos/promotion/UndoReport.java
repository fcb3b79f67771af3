package dev.mnemos.promotion;

import dev.mnemos.profile.ActiveFact;
import dev.mnemos.profile.Change;
import dev.mnemos.profile.KeptFact;

import java.time.Instant;
import java.util.List;

/**
 * What undoing a session's promotion did: its audit events ({@code changes}: the UNDO that opens it, then a RETRACT
 * per promoted fact removed, a RESTORE per superseded fact served again, an UNDO per evidence count put back and a
 * REJECT per pending candidate dropped), the facts it left alone and why ({@code kept}), and the profile after it.
 * {@code repeated}: the session's promotion had been undone already; the changes are that undo's, {@code kept} is
 * not recorded and comes back empty.
 */
public record UndoReport(String sessionId, String userId, Instant undoneAt, boolean repeated, List<Change> changes,
        List<KeptFact> kept, List<ActiveFact> facts) {

    public UndoReport {
        changes = List.copyOf(changes);
        kept = List.copyOf(kept);
        facts = List.copyOf(facts);
    }
}

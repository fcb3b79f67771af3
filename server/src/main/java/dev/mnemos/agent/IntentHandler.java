package dev.mnemos.agent;

import java.util.Set;

/** Handles the turns of some intents. Exactly one handler exists per {@link Intent}. */
public interface IntentHandler {

    Set<Intent> intents();

    TurnOutcome handle(Turn turn);
}

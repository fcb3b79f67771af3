package dev.mnemos.deployment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/** The messages of a failed build: the exception, its causes and what it suppressed (ArC adds each problem there). */
final class BuildFailures {

    private BuildFailures() {
    }

    static String messages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        collect(failure, messages, Collections.newSetFromMap(new IdentityHashMap<>()));
        return String.join("\n", messages);
    }

    private static void collect(Throwable t, List<String> messages, Set<Throwable> seen) {
        if (t == null || !seen.add(t)) {
            return;
        }
        messages.add(String.valueOf(t.getMessage()));
        collect(t.getCause(), messages, seen);
        for (Throwable suppressed : t.getSuppressed()) {
            collect(suppressed, messages, seen);
        }
    }
}

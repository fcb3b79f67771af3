package dev.mnemos.server.promotion;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The labelled statements of {@code promotion/statements.tsv}: what a user says in a task, in six
 * languages, and how long it should hold. Written by hand from everyday planning requests, not
 * from the marker files.
 */
record StatementTable(List<Row> rows) {

    /** The label of a row. */
    enum Label {
        /** A constraint on this task only (its object, date, place, budget …). */
        TASK,
        /** A one-off circumstance ("I had milk today so no crab tonight"). */
        ONE_OFF,
        /** A dated event ("my flight was moved to 9 am"). */
        EVENT,
        /** A standing preference or fact said explicitly ("from now on", "always", "I'm vegetarian"). */
        STANDING_EXPLICIT,
        /** A habit without the usual markers ("I never …", "as a rule …", "我一般 …"). */
        STANDING_IMPLICIT,
        /** One sentence with a task clause and a standing clause. */
        MIXED;

        boolean taskOnly() {
            return this == TASK || this == ONE_OFF || this == EVENT;
        }

        boolean standing() {
            return this == STANDING_EXPLICIT || this == STANDING_IMPLICIT;
        }
    }

    /**
     * One statement.
     *
     * @param taskWords for MIXED rows, words of the task clause that no profile fact or pending candidate may hold
     */
    record Row(Label label, String language, String text, String taskWords) {
    }

    /** @param name a file of {@code src/test/resources/promotion} */
    static StatementTable load(String name) {
        try (InputStream in = StatementTable.class.getResourceAsStream("/promotion/" + name)) {
            String tsv = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new StatementTable(tsv.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).map(StatementTable::row)
                    .toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Row row(String line) {
        String[] cells = Arrays.copyOf(line.split("\t"), 4);
        return new Row(Label.valueOf(cells[0]), cells[1], cells[2], cells[3] == null ? "" : cells[3]);
    }
}

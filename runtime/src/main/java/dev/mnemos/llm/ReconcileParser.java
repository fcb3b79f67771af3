package dev.mnemos.llm;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns a reconcile answer into validated operations. Lenient on form (prose around the JSON,
 * {@code "event"} for {@code "op"}, ids as strings, bare strings as ADDs), strict on meaning: an
 * UPDATE of an id that was never shown becomes an ADD (the text is not lost), a DELETE of an unknown
 * id is dropped, an operation without its text (or whose text has no letter at all) is dropped. Empty when the answer holds no
 * usable
 * operation list at all, so the caller falls back.
 */
public final class ReconcileParser {

    private ReconcileParser() {
    }

    public static Optional<List<ReconcileOp>> parse(String answer, int candidates) {
        Optional<JsonNode> list = LenientJson.object(answer)
                .flatMap(o -> LenientJson.array(o, "operations", "memory", "memories", "actions"));
        if (list.isEmpty()) {
            return Optional.empty();
        }
        List<ReconcileOp> ops = new ArrayList<>();
        for (JsonNode element : list.get()) {
            op(element, candidates).ifPresent(ops::add);
        }
        boolean onlyGarbage = ops.isEmpty() && list.get().size() > 0;
        return onlyGarbage ? Optional.empty() : Optional.of(List.copyOf(ops));
    }

    private static Optional<ReconcileOp> op(JsonNode element, int candidates) {
        if (element.isTextual() && meaningful(element.asText())) {
            return Optional.of(new ReconcileOp(ReconcileOp.Op.ADD, null, element.asText().strip(), null, null));
        }
        if (!element.isObject()) {
            return Optional.empty();
        }
        Optional<ReconcileOp.Op> op = LenientJson.text(element, "op", "event", "action", "operation")
                .flatMap(ReconcileParser::opOf);
        Integer id = LenientJson.text(element, "id", "memory_id", "index").flatMap(ReconcileParser::smallId)
                .filter(i -> i >= 0 && i < candidates).orElse(null);
        String text = LenientJson.text(element, "text", "fact", "memory", "new_text")
                .filter(ReconcileParser::meaningful).orElse(null);
        String category = LenientJson.text(element, "category").orElse(null);
        String slot = LenientJson.text(element, "slot").orElse(null);
        if (op.isEmpty()) {
            return Optional.empty();
        }
        return switch (op.get()) {
            case ADD -> text == null ? Optional.empty()
                    : Optional.of(new ReconcileOp(ReconcileOp.Op.ADD, null, text, category, slot));
            case UPDATE -> text == null ? Optional.empty()
                    : Optional.of(
                            new ReconcileOp(id == null ? ReconcileOp.Op.ADD : ReconcileOp.Op.UPDATE, id, text, category, slot));
            case DELETE -> id == null ? Optional.empty()
                    : Optional.of(new ReconcileOp(ReconcileOp.Op.DELETE, id, null, null, null));
            case NONE -> Optional.of(new ReconcileOp(ReconcileOp.Op.NONE, null, null, null, null));
        };
    }

    /** A fact says something in words: a bare number or punctuation (a coerced 7) is not one. */
    private static boolean meaningful(String text) {
        return text.codePoints().anyMatch(Character::isLetter);
    }

    private static Optional<ReconcileOp.Op> opOf(String value) {
        try {
            return Optional.of(ReconcileOp.Op.valueOf(value.strip().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<Integer> smallId(String value) {
        String digits = value.replaceAll("[\\s\\[\\]#\"']", "");
        if (!digits.matches("\\d{1,6}")) {
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(digits));
    }
}

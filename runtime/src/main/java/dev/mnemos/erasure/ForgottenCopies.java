package dev.mnemos.erasure;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemos.injection.BlockText;
import dev.mnemos.profile.Tombstones;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds and blanks the copies of forgotten texts in stored documents (an archived session's JSON, a live session's
 * keys). A copy is a forgotten text in any of the forms it is stored in (as it is, inside a JSON string, inside a
 * JSON string inside a JSON string, quoted in a memory block), and, in a JSON document, every object's
 * {@code text} the user's {@link Tombstones} cover (the same words or a rewording) with the {@code evidence}
 * beside it (an observation's: the user's own words for it). One instance serves one forget: it remembers which
 * texts it already checked.
 */
public final class ForgottenCopies {

    /** What replaces a forgotten text. */
    public static final String FORGOTTEN = "[forgotten]";

    /** Shorter texts are not blanked. */
    private static final int MIN_LENGTH = 4;

    private final ObjectMapper json;
    private final Tombstones forgotten;
    private final Map<String, Boolean> checked = new HashMap<>();

    public ForgottenCopies(ObjectMapper json, Tombstones forgotten) {
        this.json = json;
        this.forgotten = forgotten;
    }

    /** The strings of {@code document} (JSON; not JSON: none) to blank beside the forgotten texts themselves. */
    public Set<String> spokenIn(String document) {
        Set<String> found = new LinkedHashSet<>();
        if (document == null || document.isEmpty() || forgotten.isEmpty()) {
            return found;
        }
        try {
            walk(json.readTree(document), found);
        } catch (JsonProcessingException e) {
            // not JSON (a trace's memory block after its JSON line): only the forms of the texts apply
        }
        return found;
    }

    /** {@link #spokenIn(String)} of a document already parsed. */
    public Set<String> spokenIn(JsonNode document) {
        Set<String> found = new LinkedHashSet<>();
        if (!forgotten.isEmpty()) {
            walk(document, found);
        }
        return found;
    }

    private void walk(JsonNode node, Set<String> found) {
        if (node.isObject()) {
            JsonNode text = node.get("text");
            if (text != null && text.isTextual() && covered(text.asText())) {
                found.add(text.asText());
                JsonNode evidence = node.get("evidence");
                if (evidence != null && evidence.isTextual() && !evidence.asText().isBlank()) {
                    found.add(evidence.asText());
                }
            }
        }
        if (node.isContainerNode()) {
            node.forEach(child -> walk(child, found));
        } else if (node.isTextual() && node.asText().startsWith("{")) {
            // a JSON document kept as a string (an event's patch, a state field)
            found.addAll(spokenIn(node.asText()));
        }
    }

    private boolean covered(String text) {
        return !text.isBlank() && checked.computeIfAbsent(text, t -> forgotten.covers(t, null));
    }

    /** Every stored form of {@code texts}, longest first, so a form is replaced before a shorter one inside it. */
    public List<String> forms(Collection<String> texts) {
        Set<String> forms = new LinkedHashSet<>();
        for (String text : texts) {
            if (text == null || text.strip().length() < MIN_LENGTH) {
                continue; // a word or two of evidence ("yes") would blank every such word around it
            }
            String escaped = escaped(text);
            String quoted = BlockText.quote(text);
            String inBlock = quoted.substring(1, quoted.length() - 1);
            forms.addAll(List.of(text, escaped, escaped(escaped), inBlock, escaped(inBlock)));
        }
        List<String> sorted = new ArrayList<>(forms);
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        return sorted;
    }

    /** {@code value} with every one of {@code forms} replaced by {@link #FORGOTTEN}; null stays null. */
    public static String blank(String value, List<String> forms) {
        if (value == null) {
            return null;
        }
        String result = value;
        for (String form : forms) {
            if (result.contains(form)) {
                result = result.replace(form, FORGOTTEN);
            }
        }
        return result;
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

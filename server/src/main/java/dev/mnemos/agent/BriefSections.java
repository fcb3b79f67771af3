package dev.mnemos.agent;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads a brief written by {@link Briefs} back into its sections; used by the offline model. */
public record BriefSections(Map<String, String> sections) {

    /** Parses {@code text}; anything the AI service appended after the brief ends the last section. */
    public static BriefSections parse(String text) {
        Map<String, String> sections = new LinkedHashMap<>();
        String name = null;
        StringBuilder body = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("You must answer strictly")) {
                break;
            }
            if (line.startsWith("## ")) {
                put(sections, name, body);
                name = line.substring(3).strip();
                body.setLength(0);
            } else {
                body.append(line).append('\n');
            }
        }
        put(sections, name, body);
        return new BriefSections(sections);
    }

    public Optional<String> get(String name) {
        return Optional.ofNullable(sections.get(name)).filter(s -> !s.equals("(none)"));
    }

    /** The {@code - } items of a section, without their {@code [SCOPE]} tag. */
    public List<String> items(String name) {
        return get(name).stream().flatMap(s -> s.lines()).filter(l -> l.startsWith("- "))
                .map(l -> l.substring(2).replaceFirst("^\\[\\w+]\\s*", "")).toList();
    }

    private static void put(Map<String, String> sections, String name, StringBuilder body) {
        if (name != null) {
            sections.put(name, body.toString().strip());
        }
    }
}

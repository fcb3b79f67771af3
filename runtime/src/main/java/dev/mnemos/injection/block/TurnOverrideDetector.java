package dev.mnemos.injection.block;

import dev.mnemos.injection.ProfileLine;
import dev.mnemos.injection.TurnOverride;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Finds where the user's message of this step contradicts a slotted profile preference: it names
 * an output language or format that the profile fact for that slot does not. Deterministic and
 * deliberately narrow (two slots, a fixed vocabulary in English and Chinese): a missed override
 * only means the profile stays background, a false one only affects this session.
 */
public final class TurnOverrideDetector {

    static final String LANGUAGE = "output.language";
    static final String FORMAT = "output.format";

    private static final Map<String, Map<String, List<String>>> VOCABULARY = Map.of(
            LANGUAGE, ordered(
                    "English", List.of("english", "英文", "英语"),
                    "Chinese", List.of("chinese", "中文", "汉语", "普通话"),
                    "French", List.of("french", "français", "法语"),
                    "German", List.of("german", "deutsch", "德语"),
                    "Spanish", List.of("spanish", "español", "西班牙语"),
                    "Japanese", List.of("japanese", "日本語", "日语")),
            FORMAT, ordered(
                    "table", List.of("a table", "as table", "表格"),
                    "bullet list", List.of("bullet", "要点", "列表"),
                    "JSON", List.of("json"),
                    "prose", List.of("prose", "paragraph", "段落")));

    private TurnOverrideDetector() {
    }

    /** Overrides of the given facts by {@code message}; empty when the message is null or agrees. */
    public static List<TurnOverride> detect(String message, List<ProfileLine> facts) {
        List<TurnOverride> overrides = new ArrayList<>();
        if (message == null || message.isBlank()) {
            return overrides;
        }
        String said = message.toLowerCase(Locale.ROOT);
        for (ProfileLine fact : facts) {
            Map<String, List<String>> values = fact.slot() == null ? null : VOCABULARY.get(fact.slot());
            if (values == null) {
                continue;
            }
            String profileValue = valueIn(fact.text().toLowerCase(Locale.ROOT), values);
            String asked = valueIn(said, values);
            if (asked != null && !asked.equals(profileValue)) {
                overrides.add(new TurnOverride(fact.slot(), asked, fact.text()));
            }
        }
        return overrides;
    }

    private static String valueIn(String text, Map<String, List<String>> values) {
        for (Map.Entry<String, List<String>> value : values.entrySet()) {
            if (value.getValue().stream().anyMatch(text::contains)) {
                return value.getKey();
            }
        }
        return null;
    }

    private static Map<String, List<String>> ordered(Object... pairs) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            @SuppressWarnings("unchecked")
            List<String> words = (List<String>) pairs[i + 1];
            map.put((String) pairs[i], words);
        }
        return map;
    }
}

package dev.mnemos.promotion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The words of one language that tell how long something holds, read from
 * {@code mnemos/markers/<language>.json} on the class path: one array of regular expressions per
 * {@link Cue}. A missing array means the language has no such cue.
 */
public record MarkerSet(String language, Map<Cue, List<Pattern>> cues) {

    /** Where language files live on the class path. */
    public static final String FOLDER = "mnemos/markers/";

    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.UNICODE_CHARACTER_CLASS;
    private static final ObjectMapper JSON = new ObjectMapper();

    public MarkerSet {
        cues = Map.copyOf(cues);
    }

    public List<Pattern> patterns(Cue cue) {
        return cues.getOrDefault(cue, List.of());
    }

    /**
     * The language file for {@code language} from {@code classes}.
     *
     * @throws IllegalArgumentException when there is no such file or it is not valid
     */
    public static MarkerSet load(String language, ClassLoader classes) {
        String path = FOLDER + language + ".json";
        try (InputStream in = classes.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("no marker file " + path + " on the class path");
            }
            return parse(language, JSON.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable marker file " + path, e);
        }
    }

    static MarkerSet parse(String language, JsonNode root) {
        Map<Cue, List<Pattern>> cues = new EnumMap<>(Cue.class);
        for (Cue cue : Cue.values()) {
            List<Pattern> patterns = new ArrayList<>();
            root.path(cue.field()).forEach(p -> patterns.add(compile(language, cue, p.asText())));
            cues.put(cue, List.copyOf(patterns));
        }
        return new MarkerSet(root.path("language").asText(language), cues);
    }

    private static Pattern compile(String language, Cue cue, String regex) {
        try {
            return Pattern.compile(regex, FLAGS);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("bad " + cue.field() + " pattern in " + language + ".json: " + regex, e);
        }
    }
}

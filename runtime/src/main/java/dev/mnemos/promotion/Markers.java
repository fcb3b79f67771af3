package dev.mnemos.promotion;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** All languages' markers; finds the first marker of each kind in a text. Pure. */
public final class Markers {

    public static final Markers DEFAULT = new Markers(List.of(new EnglishMarkers(), new ChineseMarkers()));

    private final List<MarkerSet> sets;

    public Markers(List<MarkerSet> sets) {
        this.sets = List.copyOf(sets);
    }

    /** The temporary marker or task pattern match in {@code text}, if any ("this time", "预算"). */
    public Optional<String> temporary(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        for (MarkerSet set : sets) {
            for (String marker : set.temporary()) {
                if (lower.contains(marker)) {
                    return Optional.of(marker);
                }
            }
            for (Pattern pattern : set.taskPatterns()) {
                Matcher m = pattern.matcher(text);
                if (m.find()) {
                    return Optional.of(m.group().strip());
                }
            }
        }
        return Optional.empty();
    }

    /** The standing marker in {@code text}, if any ("from now on", "以后都"). */
    public Optional<String> standing(String text) {
        String lower = " " + text.toLowerCase(Locale.ROOT) + " ";
        for (MarkerSet set : sets) {
            for (String marker : set.standing()) {
                if (lower.contains(marker)) {
                    return Optional.of(marker.strip());
                }
            }
        }
        return Optional.empty();
    }
}

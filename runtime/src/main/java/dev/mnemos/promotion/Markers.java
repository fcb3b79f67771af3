package dev.mnemos.promotion;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.mnemos.profile.Stance;
import dev.mnemos.session.Scope;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every configured language's markers at once (a user may mix languages in one sentence): finds
 * cues, reads a clause's {@link Reading}, tells negative statements and what a statement is about.
 * Pure: the newest {@link #CACHED} readings, topics, negations and clauses are kept by text, since a session end reads
 * the same texts again (its candidates twice, the profile's facts and earlier candidates at every end).
 */
public final class Markers implements Stance {

    /** The languages shipped with Mnemos. */
    public static final List<String> SHIPPED = List.of("en", "zh", "es", "de", "fr", "ja");

    /** The shipped languages, read from the extension's own class path. */
    public static final Markers DEFAULT = load(SHIPPED, Markers.class.getClassLoader());

    /** Reading order: the first kind whose cues match wins. */
    private static final List<Reading.Kind> ORDER = List.of(Reading.Kind.FORGET, Reading.Kind.ONE_OFF, Reading.Kind.TEMPORARY,
            Reading.Kind.STANDING, Reading.Kind.HABITUAL, Reading.Kind.EVENT, Reading.Kind.TASK_OBJECT,
            Reading.Kind.TASK_DETAIL, Reading.Kind.PROPERTY, Reading.Kind.REQUEST);

    /** Punctuation and separators left at either end of a forget request's target. */
    private static final Pattern TRAILING = Pattern.compile("^[\\s,，、:：]+|[\\s.!?。！？、,，]+$");

    /** Where the parts of a clause without a cue of its own are cut. */
    private static final Pattern PARTS = Pattern.compile("[,，、;；]");

    /** How many texts' readings, topics, negations and clauses are kept, each. */
    static final int CACHED = 4096;

    private final List<MarkerSet> sets;
    private final Cache<String, Reading> readings = Caffeine.newBuilder().maximumSize(CACHED).build();
    private final Cache<String, String> topics = Caffeine.newBuilder().maximumSize(CACHED).build();
    private final Cache<String, Boolean> negatives = Caffeine.newBuilder().maximumSize(CACHED).build();
    private final Cache<String, List<String>> clauses = Caffeine.newBuilder().maximumSize(CACHED).build();

    public Markers(List<MarkerSet> sets) {
        this.sets = List.copyOf(sets);
    }

    /** The language files of {@code languages} from {@code classes}. @throws IllegalArgumentException for a missing file */
    public static Markers load(List<String> languages, ClassLoader classes) {
        return new Markers(languages.stream().distinct().map(l -> MarkerSet.load(l, classes)).toList());
    }

    public List<String> languages() {
        return sets.stream().map(MarkerSet::language).toList();
    }

    /** The first text matched by one of {@code cue}'s patterns in any language. */
    public Optional<String> find(Cue cue, String text) {
        for (MarkerSet set : sets) {
            for (Pattern p : set.patterns(cue)) {
                Matcher m = p.matcher(text);
                if (m.find()) {
                    return Optional.of(m.group().strip());
                }
            }
        }
        return Optional.empty();
    }

    public boolean has(Cue cue, String text) {
        return find(cue, text).isPresent();
    }

    /**
     * How {@code words} read: the first kind in the reading order whose cues match. When nothing matches
     * the words as a whole, their parts (between commas, after a leading "so" or "and") are read: a part
     * that reads task-scoped makes the whole task-scoped ("I've got a migraine, so keep the reply short"),
     * else a standing part makes it standing, since a cue anchored at the start of a part ("keep …")
     * cannot match inside the whole.
     */
    public Reading read(String words) {
        return known(readings, words, this::readAnew);
    }

    private Reading readAnew(String words) {
        Reading whole = readWhole(words);
        List<String> parts = whole.kind() == Reading.Kind.NONE ? parts(words) : List.of();
        if (parts.size() < 2) {
            return whole;
        }
        Reading standing = Reading.NONE;
        for (String part : parts) {
            Reading r = readWhole(part);
            if (r.scope() == Scope.TASK) {
                return r;
            }
            standing = standing.kind() == Reading.Kind.NONE ? r : standing;
        }
        return standing.kind() != Reading.Kind.NONE ? standing
                : linked(words).map(cue -> new Reading(Reading.Kind.ONE_OFF, cue)).orElse(Reading.NONE);
    }

    /**
     * The word that links a circumstance to what follows from it in words without any other cue ("my car is
     * at the mechanic, so we'll take the bus", "時差ぼけなので、…"): a later part opening with a consequence, or
     * an earlier part opening or closing with a reason. A circumstance given as the reason for a decision is
     * a one-off; a lasting fact is said without it or with a cue of its own ("I get seasick, so always …").
     */
    private Optional<String> linked(String words) {
        String[] parts = PARTS.split(words);
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].strip();
            for (Pattern p : patterns(Cue.CONSEQUENCE, Cue.REASON)) {
                boolean closer = p.pattern().endsWith("$");
                boolean consequence = patterns(Cue.CONSEQUENCE).contains(p);
                Matcher m = p.matcher(part);
                boolean placed = consequence ? i > 0 && !closer : i < parts.length - 1;
                if (placed && (closer ? m.find() : m.lookingAt())) {
                    return Optional.of(m.group().strip());
                }
            }
        }
        return Optional.empty();
    }

    /** Whether {@code clause} speaks about the user ({@link Cue#PERSONAL}). */
    public boolean personal(String clause) {
        return has(Cue.PERSONAL, clause);
    }

    private List<String> parts(String words) {
        List<String> parts = new ArrayList<>();
        for (String part : PARTS.split(words)) {
            String rest = part.strip();
            for (Pattern p : patterns(Cue.CONSEQUENCE, Cue.CONNECTOR)) {
                Matcher m = p.matcher(rest);
                if (m.lookingAt() && !p.pattern().endsWith("$") && m.end() < rest.length()) {
                    rest = rest.substring(m.end()).strip();
                    break;
                }
            }
            if (!rest.isBlank()) {
                parts.add(rest);
            }
        }
        return parts;
    }

    private Reading readWhole(String words) {
        for (Reading.Kind kind : ORDER) {
            Optional<String> cue = switch (kind) {
                case PROPERTY -> find(Cue.KEEP, words).or(() -> find(Cue.PROPERTY, words));
                case HABITUAL -> find(Cue.HABITUAL, words).or(() -> habit(words));
                case FORGET -> forgetting(words);
                default -> find(cue(kind), words);
            };
            if (cue.isPresent()) {
                return new Reading(kind, cue.get());
            }
        }
        return Reading.NONE;
    }

    /**
     * A forget cue before (or, in Japanese, after) a statement about the user ("forget that I live in Boston"), at the
     * start of the words or of one of their parts ("ok, forget that …"); not "forget about museums", nor "forget the
     * hotel, I'd rather camp", whose first part says nothing about the user.
     */
    private Optional<String> forgetting(String words) {
        return forgetRequest(words).map(r -> r[0]);
    }

    /**
     * What a forget request asks to be forgotten: its words without the forget cue and the closing punctuation ("forget
     * that I live in Boston." → "I live in Boston"); empty when {@code text} is no forget request.
     */
    public Optional<String> forgetTarget(String text) {
        return read(text).kind() == Reading.Kind.FORGET ? forgetRequest(text).map(r -> r[1]) : Optional.empty();
    }

    /** The forget cue and target of the first part of {@code words} that opens a forget request ({@link #forgetting}). */
    private Optional<String[]> forgetRequest(String words) {
        Matcher cut = PARTS.matcher(words);
        int from = 0;
        while (true) {
            String rest = words.substring(from).strip();
            Optional<String> cue = find(Cue.FORGET, rest);
            if (cue.isPresent()) {
                String target = TRAILING.matcher(without(rest, Cue.FORGET)).replaceAll("").strip();
                String[] parts = PARTS.split(target, 2);
                if (!target.isEmpty() && personal(parts[0])) {
                    return Optional.of(new String[] { cue.get(), target });
                }
            }
            if (!cut.find()) {
                return Optional.empty();
            }
            from = cut.end();
        }
    }

    /** A frequency said about the user that asks for nothing ("I run every morning", not "plan a walk every day"). */
    private Optional<String> habit(String words) {
        Optional<String> often = find(Cue.FREQUENCY, words);
        return often.isPresent() && personal(words) && !has(Cue.REQUEST, words) ? often : Optional.empty();
    }

    /** The temporary marker or task detail in {@code text}, if any ("this time", "预算"). */
    public Optional<String> temporary(String text) {
        Reading r = read(text);
        return r.scope() == Scope.TASK ? Optional.of(r.cue()) : Optional.empty();
    }

    /**
     * Whether {@code text} is a negative statement: an odd number of separate negation cues ("I don't
     * eat meat" yes; "I'm no longer allergic" no — "no longer" undoes "allergic").
     */
    @Override
    public boolean negative(String text) {
        return known(negatives, text, t -> spans(Cue.NEGATION, t).size() % 2 == 1);
    }

    /** {@code text} without the words of {@code cues}: what a statement is about. */
    public String without(String text, Cue... cues) {
        String rest = text;
        for (Cue cue : cues) {
            for (MarkerSet set : sets) {
                for (Pattern p : set.patterns(cue)) {
                    rest = p.matcher(rest).replaceAll(" ");
                }
            }
        }
        return rest.replaceAll("\\s+", " ").strip();
    }

    /**
     * What a statement is about: its words without standing, habit, negation, property or keep cues. A statement
     * that is all cue ("I'm vegetarian", "吃素") is about its own words without negation, never about nothing.
     */
    @Override
    public String topic(String text) {
        return known(topics, text, t -> {
            String topic = without(t, Cue.STANDING, Cue.HABITUAL, Cue.KEEP, Cue.PROPERTY, Cue.NEGATION, Cue.CONNECTOR,
                    Cue.TEMPORARY);
            String own = without(t, Cue.NEGATION, Cue.CONNECTOR);
            return !topic.isBlank() ? topic : !own.isBlank() ? own : t.strip();
        });
    }

    /** {@code text}'s answer from {@code cache}, worked out and kept when it is not there. */
    private static <T> T known(Cache<String, T> cache, String text, Function<String, T> anew) {
        T value = cache.getIfPresent(text);
        if (value == null) {
            value = anew.apply(text);
            cache.put(text, value);
        }
        return value;
    }

    /** The clauses of {@code text}, each to be decided alone ({@link Clauses}). */
    public List<String> clauses(String text) {
        return known(clauses, text, t -> List.copyOf(new Clauses(this).split(t)));
    }

    List<Pattern> patterns(Cue... cues) {
        List<Pattern> all = new ArrayList<>();
        for (Cue cue : cues) {
            sets.forEach(s -> all.addAll(s.patterns(cue)));
        }
        return all;
    }

    /** The separate (non-overlapping) stretches of {@code text} matched by {@code cue}. */
    private List<int[]> spans(Cue cue, String text) {
        List<int[]> found = new ArrayList<>();
        for (Pattern p : patterns(cue)) {
            Matcher m = p.matcher(text);
            while (m.find()) {
                found.add(new int[] { m.start(), m.end() });
            }
        }
        found.sort(Comparator.comparingInt((int[] s) -> s[0]));
        List<int[]> merged = new ArrayList<>();
        for (int[] s : found) {
            if (!merged.isEmpty() && s[0] < merged.get(merged.size() - 1)[1]) {
                merged.get(merged.size() - 1)[1] = Math.max(merged.get(merged.size() - 1)[1], s[1]);
            } else {
                merged.add(s);
            }
        }
        return merged;
    }

    private static Cue cue(Reading.Kind kind) {
        return switch (kind) {
            case FORGET -> Cue.FORGET;
            case ONE_OFF -> Cue.ONE_OFF;
            case TEMPORARY -> Cue.TEMPORARY;
            case STANDING -> Cue.STANDING;
            case HABITUAL -> Cue.HABITUAL;
            case EVENT -> Cue.EVENT;
            case TASK_OBJECT -> Cue.DEIXIS;
            case TASK_DETAIL -> Cue.TASK;
            case PROPERTY -> Cue.PROPERTY;
            case REQUEST -> Cue.REQUEST;
            case NONE -> throw new IllegalArgumentException("no cue for " + kind);
        };
    }
}

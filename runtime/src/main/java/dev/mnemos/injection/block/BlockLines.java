package dev.mnemos.injection.block;

import dev.mnemos.injection.BlockText;
import dev.mnemos.injection.TokenCounter;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The lines of a memory block being rendered, with a running token count against the budget. Costs,
 * quotes and cuts are first looked up in what the session's previous render made of the same text
 * ({@link RenderMemo}): most of a block repeats from one step to the next.
 */
final class BlockLines {

    private static final String ELLIPSIS = "…";
    /** Values shorter than this are quoted again rather than looked up: quoting them costs less than a lookup. */
    private static final int QUOTE_LOOKUP_CHARS = 32;
    /** A value cut to fit its room is cut to a multiple of this many tokens (up to this many fewer than would fit). */
    static final int CUT_STEP = 8;

    private final int budget;
    private final TokenCounter tokens;
    private final RenderMemo.Use memo;
    private final TokenCounter lineTokens;
    private final List<String> lines = new ArrayList<>();
    private String closing;
    private int used;

    BlockLines(int budget, TokenCounter tokens, RenderMemo.Use memo) {
        this.budget = budget;
        this.tokens = tokens;
        this.memo = memo;
        // with the session's recent renders at hand, a line they do not know is new text: tokenized
        // directly (a shared memory of counts would only be filled with it); cuts keep that memory,
        // where a search's probes repeat
        this.lineTokens = memo.recalls() ? tokens.unremembered() : tokens;
    }

    /** Adds a line that is never dropped, whatever the budget. */
    void fixed(String line) {
        add(line, cost(line));
    }

    private void add(String line, int lineCost) {
        lines.add(line);
        used += lineCost;
    }

    /** Counts the last line now; it is appended by {@link #text()}. */
    void reserve(String line) {
        closing = line;
        used += cost(line);
    }

    /** Adds the line when it fits in what is left of the budget. */
    boolean optional(String line) {
        int lineCost = cost(line);
        if (lineCost > remaining()) {
            return false;
        }
        add(line, lineCost);
        return true;
    }

    /**
     * Adds the header and as many items as fit within {@code capPercent} of the budget and what is
     * left of it, in order. @return how many items were added
     */
    int section(String header, List<String> items, int capPercent) {
        int headerCost = cost(header);
        int room = Math.min(remaining(), budget * capPercent / 100) - headerCost;
        int count = 0;
        int taken = 0;
        for (String item : items) {
            int itemCost = cost(item); // each line is counted once: a real tokenizer is not free
            if (itemCost > room) {
                break;
            }
            room -= itemCost;
            taken += itemCost;
            count++;
        }
        if (count > 0) {
            lines.add(header);
            lines.addAll(items.subList(0, count));
            used += headerCost + taken;
        }
        return count;
    }

    /** Adds {@code label + quoted value}, the value cut at its end to fit. @return false when nothing useful fit */
    boolean head(String label, String value, int capPercent) {
        return fitted(label, value, capPercent, this::cut);
    }

    /** Adds {@code label + quoted value}, the value cut at its start to fit (newest text is kept). */
    boolean tail(String label, String value, int capPercent) {
        return fitted(label, value, capPercent, this::cutStart);
    }

    private boolean fitted(String label, String value, int capPercent, BiFunction<String, Integer, String> cutter) {
        int room = Math.min(remaining(), budget * capPercent / 100);
        // the whole value first when it may fit: then its line is the only text counted (a value that
        // changed since the last step is tokenized once, not once alone and once in its line); a value
        // of more characters than the window of a cut (a long summary) goes straight to the cut
        if (value.length() <= (long) TokenCounter.WINDOW_CHARS_PER_TOKEN * room) {
            String whole = label + quote(value);
            int wholeCost = cost(whole);
            if (wholeCost <= room) {
                add(whole, wholeCost);
                return true;
            }
        }
        // a cut's length goes by steps of CUT_STEP tokens: the room left moves by a token or two from one step
        // to the next (the lines before changed a little), and a cut to the same length is looked up in the
        // memo, where a cut to a new one searches the text again with the tokenizer
        int allowed = room - cost(label) - 2;
        allowed -= Math.floorMod(allowed, CUT_STEP);
        while (allowed >= 8) {
            String line = label + quote(cutter.apply(value, allowed));
            int lineCost = cost(line);
            if (lineCost <= room) {
                add(line, lineCost);
                return true;
            }
            allowed = allowed * 9 / 10;
        }
        return false;
    }

    /** The line added last. */
    String last() {
        return lines.get(lines.size() - 1);
    }

    String text() {
        List<String> all = new ArrayList<>(lines);
        if (closing != null) {
            all.add(closing);
        }
        return String.join("\n", all);
    }

    private int remaining() {
        return budget - used;
    }

    /** {@code text} cut to at most {@code maxTokens}, marked with an ellipsis when cut. */
    String cut(String text, int maxTokens) {
        return memo.cut(new RenderMemo.Cut(text, maxTokens, false), this::cutNow);
    }

    /** {@code text} cut at its start to at most {@code maxTokens} (its newest part kept), marked when cut. */
    String cutStart(String text, Integer maxTokens) {
        return memo.cut(new RenderMemo.Cut(text, maxTokens, true), this::cutNow);
    }

    private String cutNow(RenderMemo.Cut cut) {
        String text = cut.text();
        int maxTokens = cut.maxTokens();
        if (cut.atEnd()) {
            return tokens.exceedsAtEnd(text, maxTokens) ? ELLIPSIS + tokens.suffix(text, Math.max(0, maxTokens - 1)) : text;
        }
        return tokens.exceeds(text, maxTokens) ? tokens.prefix(text, Math.max(0, maxTokens - 1)) + ELLIPSIS : text;
    }

    /** {@link BlockText#quote} of {@code value}. */
    String quote(String value) {
        return value.length() < QUOTE_LOOKUP_CHARS ? BlockText.quote(value) : memo.quote(value);
    }

    /** Tokens of the lines so far, each counted with its line break (as the budget counts them). */
    int used() {
        return used;
    }

    /** What {@code line} costs the budget: its tokens with its line break. */
    int cost(String line) {
        return memo.cost(line, counted -> lineTokens.count(counted + "\n"));
    }
}

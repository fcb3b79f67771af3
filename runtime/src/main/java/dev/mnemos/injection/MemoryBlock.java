package dev.mnemos.injection;

import dev.mnemos.injection.block.OncePerPrompt;
import dev.mnemos.injection.block.TokenEstimator;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * One rendered memory block.
 *
 * @param text the framed block, ready for a system message
 * @param tokens its size as its budget counts it: each line with its line break, by the application's tokenizer
 *        or {@link TokenEstimator} (the same as counting the whole text, or a few tokens more)
 * @param budget the token budget it was rendered for
 * @param overBudget true only when the never-dropped part (goal, step, constraints, overrides) alone exceeds the budget
 * @param plansShown versions of the plans rendered in full, newest first
 * @param profileShown ids (or texts) of the profile facts rendered, in rendered order
 * @param profileTotal how many profile facts were offered
 * @param stored the lines that quote a stored answer (a plan version or a collected value), for
 *        {@link OncePerPrompt}: a chat window that carries the same text makes them references
 */
public record MemoryBlock(String text, int tokens, int budget, boolean overBudget, List<Integer> plansShown,
        List<String> profileShown, int profileTotal, List<StoredLine> stored) {

    public MemoryBlock {
        plansShown = List.copyOf(plansShown);
        profileShown = List.copyOf(profileShown);
        stored = List.copyOf(stored);
    }

    public MemoryBlock(String text, int tokens, int budget, boolean overBudget, List<Integer> plansShown,
            List<String> profileShown, int profileTotal) {
        this(text, tokens, budget, overBudget, plansShown, profileShown, profileTotal, List.of());
    }

    /**
     * One line of the block that quotes a stored text, whole or cut.
     *
     * @param value the stored text
     * @param line the line as rendered
     * @param reference what the line becomes when the prompt carries the text elsewhere
     */
    public record StoredLine(String value, String line, String reference) {
    }

    /** SHA-256 of the text, hex: identifies what was injected in a trace. */
    public String sha256() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

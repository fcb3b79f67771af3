package dev.mnemos.injection;

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
 */
public record MemoryBlock(String text, int tokens, int budget, boolean overBudget, List<Integer> plansShown,
        List<String> profileShown, int profileTotal) {

    public MemoryBlock {
        plansShown = List.copyOf(plansShown);
        profileShown = List.copyOf(profileShown);
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

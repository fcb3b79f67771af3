package dev.mnemos.profile;

import java.util.List;
import java.util.function.Function;

/**
 * What one user forgot, read once to check many texts: a text is covered when its digest is one of a
 * forgotten text's (the same words once normalised), or its embedding is at least
 * {@link ProfileConfig#forgottenSimilarity()} alike to a forgotten text's (a rewording). Empty for a
 * user who forgot nothing, which covers nothing and costs no embedding.
 */
public final class Tombstones {

    private final List<ForgottenText> rows;
    private final Function<String, String> digest;
    private final FactEmbeddings embeddings;
    private final double similarity;

    Tombstones(List<ForgottenText> rows, Function<String, String> digest, FactEmbeddings embeddings, double similarity) {
        this.rows = List.copyOf(rows);
        this.digest = digest;
        this.embeddings = embeddings;
        this.similarity = similarity;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** Whether {@code text} (its {@code embedding} may be null: it is computed when needed) was forgotten. */
    public boolean covers(String text, float[] embedding) {
        return !covering(text, embedding).isEmpty();
    }

    /** The forgotten texts {@code text} says again, worded the same or differently. */
    List<ForgottenText> covering(String text, float[] embedding) {
        if (rows.isEmpty()) {
            return List.of();
        }
        String d = digest.apply(text);
        float[] vector = embedding != null || rows.stream().allMatch(r -> r.embedding == null) ? embedding
                : embeddings.embed(text);
        return rows.stream().filter(r -> r.digest.equals(d) || vector != null && r.embedding != null
                && FactEmbeddings.cosine(vector, FactEmbeddings.decode(r.embedding)) >= similarity).toList();
    }
}

package dev.mnemos.profile;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Makes forgetting final without keeping what was forgotten. A forgotten text leaves a row
 * ({@code profile_forgotten}) holding a keyed digest of the user and its normalised text, and its
 * embedding; promotion and import check new facts against them ({@link Tombstones}), so neither the
 * text nor a rewording of it comes back from a session, a pending candidate, an import or a model's
 * extraction. The user stating it again (add, correct, instruct) removes the rows it covers. Calls join
 * the caller's transaction.
 */
@ApplicationScoped
public class ForgottenTexts {

    /** The digests' key when {@code quarkus.mnemos.profile.forget-key} is not set. */
    private static final String DEFAULT_KEY = "mnemos-forgotten-v1";

    private final SecretKeySpec key;
    private final FactEmbeddings embeddings;
    private final ProfileConfig config;

    public ForgottenTexts(ProfileConfig config, FactEmbeddings embeddings) {
        this.config = config;
        this.embeddings = embeddings;
        this.key = new SecretKeySpec(config.forgetKey().orElse(DEFAULT_KEY).getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /** What {@code userId} forgot. */
    @Transactional
    public Tombstones of(String userId) {
        return new Tombstones(ForgottenText.list("userId", userId), text -> digest(userId, text), embeddings,
                config.forgottenSimilarity());
    }

    /** Records that {@code userId} forgot {@code text} ({@code embedding} in stored form, may be null). */
    @Transactional(Transactional.TxType.MANDATORY)
    void add(String userId, String text, byte[] embedding, Instant at) {
        String digest = digest(userId, text);
        if (ForgottenText.count("userId = ?1 and digest = ?2", userId, digest) > 0) {
            return;
        }
        ForgottenText row = new ForgottenText();
        row.userId = userId;
        row.digest = digest;
        row.embedding = embedding;
        row.forgottenAt = at;
        row.persist();
    }

    /** The user stated {@code text} again: what it covers is no longer forgotten. */
    @Transactional(Transactional.TxType.MANDATORY)
    void lift(Tombstones forgotten, String text, float[] embedding) {
        forgotten.covering(text, embedding).forEach(ForgottenText::delete);
    }

    private String digest(String userId, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(userId.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return HexFormat.of().formatHex(mac.doFinal(FactText.normalise(text).getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }
}

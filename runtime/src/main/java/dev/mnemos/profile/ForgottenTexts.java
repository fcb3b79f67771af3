package dev.mnemos.profile;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;
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
 * the caller's transaction, which reads a user's rows once (a session end checks its candidates and then the
 * facts they become) until it adds or removes one.
 */
@ApplicationScoped
public class ForgottenTexts {

    /** The digests' key when {@code quarkus.mnemos.profile.forget-key} is not set. */
    private static final String DEFAULT_KEY = "mnemos-forgotten-v1";

    private final SecretKeySpec key;
    private final FactEmbeddings embeddings;
    private final ProfileConfig config;
    private final TransactionSynchronizationRegistry transactions;

    public ForgottenTexts(ProfileConfig config, FactEmbeddings embeddings, TransactionSynchronizationRegistry transactions) {
        this.config = config;
        this.transactions = transactions;
        this.embeddings = embeddings;
        this.key = new SecretKeySpec(config.forgetKey().orElse(DEFAULT_KEY).getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /** What {@code userId} forgot. */
    @Transactional
    public Tombstones of(String userId) {
        Read read = read(userId);
        if (read.tombstones == null) {
            read.tombstones = new Tombstones(ForgottenText.list("userId", userId), text -> digest(userId, text), embeddings,
                    config.forgottenSimilarity());
        }
        return read.tombstones;
    }

    /** What this transaction has read of the user's forgotten texts: null until read, or after they changed. */
    private static final class Read {
        private Tombstones tombstones;
    }

    private Read read(String userId) {
        String key = ForgottenTexts.class.getName() + ":" + userId;
        if (transactions.getResource(key) instanceof Read read) {
            return read;
        }
        Read read = new Read();
        transactions.putResource(key, read);
        return read;
    }

    /** Records that {@code userId} forgot {@code text} ({@code embedding} in stored form, may be null). */
    @Transactional(Transactional.TxType.MANDATORY)
    void add(String userId, String text, byte[] embedding, Instant at) {
        read(userId).tombstones = null;
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
    void lift(String userId, Tombstones forgotten, String text, float[] embedding) {
        read(userId).tombstones = null;
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

package dev.mnemos.profile;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/** User profile settings. */
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
@ConfigMapping(prefix = "quarkus.mnemos.profile")
public interface ProfileConfig {

    /** Where near-duplicate detection gets its embeddings. */
    enum Embeddings {
        /** The application's single EmbeddingModel bean, else in-process all-MiniLM-L6-v2 when on the classpath, else none. */
        AUTO,
        /** No embeddings: only exact and normalised duplicates are found. */
        NONE
    }

    /**
     * Most ACTIVE facts per user. A direct write or a confirmed candidate beyond it is refused; instruct and import
     * evict the weakest; a session end removes no fact and leaves its candidates pending.
     */
    @WithDefault("50")
    int maxFacts();

    /** Longest fact text, in characters. */
    @WithDefault("280")
    int maxFactChars();

    /** Most characters of user input accepted by instruct and import (the input of one model call). */
    @WithDefault("50000")
    int maxInputChars();

    /** How many near-duplicate facts are shown to the reconcile model as candidates. */
    @WithDefault("8")
    int reconcileCandidates();

    /**
     * Least cosine similarity for an existing fact to be a reconcile candidate; 0 keeps every fact that
     * is not outright dissimilar (the multilingual recall of all-MiniLM-L6-v2 is weak, so stay low).
     */
    @WithDefault("0")
    double candidateSimilarity();

    /** Cosine similarity a fact needs to be matched by an offline "forget …" instruction. */
    @WithDefault("0.55")
    double forgetSimilarity();

    /**
     * Cosine similarity at or above which a new fact counts as a rewording of a forgotten text and is not promoted
     * or imported (the user's own statement still adds it). Lower catches more rewordings and also blocks more
     * statements that only resemble the forgotten one (the opposite preference, another person's name).
     */
    @WithDefault("0.85")
    double forgottenSimilarity();

    /**
     * Secret key of the digests that stand for forgotten texts (HMAC-SHA-256 of the user and the normalised text).
     * Set it in production, so a copy of the database alone cannot test guesses against them; a new key no longer
     * recognises texts forgotten under the old one worded the same (their embeddings still match). Unset: a fixed
     * key.
     */
    Optional<String> forgetKey();

    /** Confidence given to facts the user wrote or instructed directly. */
    @WithDefault("1.0")
    double directConfidence();

    /** Confidence given to facts imported from another assistant's export. */
    @WithDefault("0.7")
    double importConfidence();

    /**
     * Cosine similarity of two facts' topics (their words without polarity and standing words) at or
     * above which a new fact of opposite polarity supersedes an old one that has no slot.
     */
    @WithDefault("0.8")
    double contradictionSimilarity();

    /**
     * How long a profile write sent with an {@code Idempotency-Key} is remembered: a repeat within it writes nothing
     * and answers the first write's changes. The user's expired records are dropped by their next keyed write.
     */
    @WithDefault("24h")
    Duration idempotencyTtl();

    /** Longest wait for the per-user profile lock before a write answers 503. */
    @WithDefault("10s")
    Duration lockTimeout();

    /** Most audit events returned by one history read. */
    @WithDefault("500")
    int historyLimit();

    /** Cosine similarity at or above which an imported fact counts as a duplicate of an existing one. */
    @WithDefault("0.9")
    double duplicateSimilarity();

    /**
     * AUTO uses the application's single {@code EmbeddingModel} bean, else in-process all-MiniLM-L6-v2
     * when its jar is on the classpath, else none; NONE turns near-duplicate detection off.
     */
    @WithDefault("AUTO")
    Embeddings embeddings();

    /** Longest wait for one profile read (active facts or history) from Postgres; a slower read answers 503. */
    @WithDefault("5s")
    Duration readTimeout();

    /** Times a profile read is tried again after a transient Postgres failure (connection lost, lock timeout). */
    @WithDefault("1")
    int readRetries();

    /** Times a profile write (its own transaction) is tried again after a transient Postgres failure. */
    @WithDefault("2")
    int writeRetries();

    /**
     * How long the copy of each profile's revision in Redis lives (see {@code ProfileRevisions}): a step
     * whose cached facts match it reads no Postgres. Every profile write sets it after its commit, before
     * it returns; when Redis could not be reached then, steps may use the previous facts for at most this
     * long. 0 turns the copy off: every step checks the revision in Postgres.
     */
    @WithDefault("60s")
    Duration revisionMirrorTtl();

    /** Pause before a profile read or write is tried again (plus up to 200 ms of random jitter). */
    @WithDefault("50ms")
    Duration retryDelay();
}

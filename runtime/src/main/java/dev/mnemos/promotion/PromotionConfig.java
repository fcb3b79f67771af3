package dev.mnemos.promotion;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;

/** Promotion at task end. */
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
@ConfigMapping(prefix = "quarkus.mnemos.promotion")
public interface PromotionConfig {

    /** Confidence at or above which a candidate is promoted to the profile. */
    @WithDefault("0.8")
    double promoteThreshold();

    /** Confidence at or above which an unpromoted candidate waits for the user's confirmation; below it is rejected. */
    @WithDefault("0.3")
    double pendingThreshold();

    /** In how many ended sessions an implicit preference must be observed consistently to be promoted. */
    @WithDefault("3")
    int sessionsToPromote();

    /** Cosine similarity at or above which two candidates worded differently count as the same preference. */
    @WithDefault("0.8")
    double sameSimilarity();

    /**
     * Languages whose statement markers are read, besides every {@code mnemos/markers/<language>.json}
     * found on the class path (docs/promotion.md, "Adding a language").
     */
    @WithDefault("en,zh,es,de,fr,ja")
    List<String> languages();

    /**
     * Most facts one session end promotes; further candidates it would promote stay pending, for the user to confirm.
     * Bounds what a single session (an agent misled by injected instructions, say) can write into the profile.
     */
    @WithDefault("5")
    int maxPerSession();

    /** Whether facts are also extracted from the user's own chat messages at task end (only with a configured model). */
    @WithDefault("true")
    boolean extractAtEnd();

    /**
     * How often sessions a crash left ENDED without an archive are ended again (promoted, archived, cleared), the first
     * time 30 s after start-up, or one interval when that is shorter ({@link EndSweep}); 0 turns the sweep off.
     */
    @WithDefault("5m")
    Duration endSweepInterval();

    /** How long a session must have been ENDED before the sweep completes its end: an end still running is left alone. */
    @WithDefault("1m")
    Duration endSweepGrace();
}

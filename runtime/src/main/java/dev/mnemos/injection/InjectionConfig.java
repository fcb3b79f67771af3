package dev.mnemos.injection;

import dev.mnemos.injection.block.TokenEstimator;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Read-before-write settings for {@link SessionMemory} AI-service methods. */
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
@ConfigMapping(prefix = "quarkus.mnemos.injection")
public interface InjectionConfig {

    /** How the rolling summary is folded when a session outgrows the block. */
    enum SummaryMode {
        DETERMINISTIC,
        MODEL
    }

    /** Largest injected memory block, in estimated tokens (see {@link TokenEstimator}). */
    @WithDefault("1000")
    int tokenBudget();

    /** How many of the newest plan versions are rendered in full (1 or 2); older ones live in the summary. */
    @WithDefault("2")
    int plansShown();

    /** Most profile facts rendered as background, best first. */
    @WithDefault("20")
    int maxProfileFacts();

    /**
     * How long a write-back that lost its compare-and-set to concurrent writers of the same session keeps
     * re-reading the session and re-applying its writer on the newer version; when it runs out, the call fails
     * with {@link StepWriteConflictException} (after its model call). At least one retry is always made.
     */
    @WithDefault("10s")
    Duration writeConflictWait();

    /**
     * Characters of text whose token counts are remembered when an application tokenizer counts the
     * memory block (0: none). Most of a block is the same from one step to the next (goal,
     * constraints, profile lines, the plans, the summary between folds), and a real tokenizer costs
     * far more than a lookup; a cut searches over prefixes, which repeat as well. The same bound
     * applies, separately, to the sessions' render memos: what each session's last block counted,
     * quoted and cut, for its next step (least recently stepped sessions forgotten first).
     */
    @WithDefault("4000000")
    long tokenCountCacheChars();

    /** Longest rolling summary kept in the session, in characters; the oldest part is cut first. */
    @WithDefault("4000")
    int summaryMaxChars();

    /** DETERMINISTIC folds older plans without a model; MODEL uses the session-summary prompt when a model is configured. */
    @WithDefault("DETERMINISTIC")
    SummaryMode summaryMode();

    /** Whose chat history an AI service sees in a session. */
    enum ChatWindow {
        /** Each AI service keeps its own window in the session: a critic does not receive a planner's turns. */
        PER_SERVICE,
        /** One window a session, shared by every AI service that calls it. */
        PER_SESSION
    }

    /** One chat window per (session, AI service), or one per session. */
    @WithDefault("per-service")
    ChatWindow chatWindow();

    /** Chat messages kept per chat window in the Redis chat memory (a sliding window). */
    @WithDefault("20")
    int chatMaxMessages();

    /** How many of the newest step traces are kept per session. */
    @WithDefault("500")
    int traceRetention();

    /**
     * Longest wait for the user's profile before a step; a slower read is abandoned and the step goes
     * on with the session only (its trace says the profile was MISSING). Allows a cold first read.
     */
    @WithDefault("2s")
    Duration profileTimeout();

    /** Profile reads in the rolling window the circuit breaker judges; it opens when enough of them failed. */
    @WithDefault("20")
    int profileBreakerRequests();

    /** Share of failed profile reads in the window (0 to 1) that opens the circuit: steps then skip the profile. */
    @WithDefault("0.5")
    double profileBreakerFailureRatio();

    /** How long an open circuit skips the profile before one read is tried again. */
    @WithDefault("5s")
    Duration profileBreakerDelay();

    /** What an anonymous HTTP caller of an application with an authentication mechanism may reach. */
    enum AnonymousAccess {
        /** Only the sessions of {@link #anonymousUser()}. */
        OWN_SESSIONS,
        /** Every user's sessions (logged at start). */
        UNRESTRICTED
    }

    /**
     * Sessions an anonymous caller of an HTTP request may read and write through {@link SessionMemory} methods
     * when the application has an authentication mechanism (HTTP Basic, JWT, …); without one, every caller is
     * anonymous and unrestricted.
     */
    @WithDefault("own-sessions")
    AnonymousAccess anonymousAccess();

    /** Owner of a session started by its first call when no caller is authenticated (an application without security). */
    @WithDefault("anonymous")
    String anonymousUser();

    /** What the default step writer takes from the user's message of each step. */
    Capture capture();

    /**
     * The default step writer's capture of the user's message ({@link StepCapture}, Mnemos' own:
     * {@code dev.mnemos.capture.TurnCapture}).
     */
    interface Capture {

        /**
         * Whether the default step writer captures the task's goal, constraints (with their scope), standing statements
         * (as observations for promotion) and the answer's open questions from each step's user message; off, it writes
         * the answer and the step pointer only. A step with a writer of its own is not affected.
         */
        @WithDefault("true")
        boolean enabled();
    }
}

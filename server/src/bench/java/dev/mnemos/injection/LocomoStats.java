package dev.mnemos.injection;

/** Block size against history size over the LoCoMo replay, bucketed by session number and by turn in session. */
final class LocomoStats {

    private static final int[][] SESSION_BUCKETS = { { 1, 1 }, { 2, 5 }, { 6, 10 }, { 11, 20 }, { 21, 40 } };
    private static final int[][] TURN_BUCKETS = { { 1, 5 }, { 6, 10 }, { 11, 20 }, { 21, 40 }, { 41, 1000 } };

    private final long[][] bySession = new long[SESSION_BUCKETS.length][4];
    private final long[][] byTurn = new long[TURN_BUCKETS.length][4];
    private long steps;
    private long block;
    private long history;
    private long within10;
    private int maxBlock;

    void add(int session, int turn, int blockTokens, int sessionHistory, int conversationHistory) {
        accumulate(bySession[bucket(SESSION_BUCKETS, session)], blockTokens, sessionHistory, conversationHistory);
        accumulate(byTurn[bucket(TURN_BUCKETS, turn)], blockTokens, sessionHistory, conversationHistory);
        steps++;
        block += blockTokens;
        history += conversationHistory;
        maxBlock = Math.max(maxBlock, blockTokens);
        if (blockTokens * 10L <= conversationHistory) {
            within10++;
        }
    }

    void print(Lines out) {
        out.line(
                "steps %d; block tokens mean %.0f, max %d; all block tokens / all full-history tokens = %.1f%%; steps with block <= 10%% of full history: %.1f%%",
                steps, block / (double) steps, maxBlock, 100.0 * block / history, 100.0 * within10 / steps);
        out.line("by session number (full history = every earlier turn of the conversation):");
        out.line("  %-9s %7s %12s %16s %8s", "sessions", "steps", "block(mean)", "history(mean)", "ratio");
        print(out, SESSION_BUCKETS, bySession, 3);
        out.line("by turn within the session (flatness as a task grows; history = earlier turns of this task):");
        out.line("  %-9s %7s %12s %16s %8s", "turns", "steps", "block(mean)", "history(mean)", "ratio");
        print(out, TURN_BUCKETS, byTurn, 2);
    }

    private static void print(Lines out, int[][] buckets, long[][] sums, int historyColumn) {
        for (int b = 0; b < buckets.length; b++) {
            long[] s = sums[b];
            if (s[0] == 0) {
                continue;
            }
            out.line("  %-9s %7d %12.0f %16.0f %7.1f%%", buckets[b][0] + "-" + buckets[b][1], s[0], s[1] / (double) s[0],
                    s[historyColumn] / (double) s[0], s[historyColumn] == 0 ? 0 : 100.0 * s[1] / s[historyColumn]);
        }
    }

    private static void accumulate(long[] sums, int block, int sessionHistory, int conversationHistory) {
        sums[0]++;
        sums[1] += block;
        sums[2] += sessionHistory;
        sums[3] += conversationHistory;
    }

    private static int bucket(int[][] buckets, int value) {
        for (int b = 0; b < buckets.length; b++) {
            if (value <= buckets[b][1]) {
                return b;
            }
        }
        return buckets.length - 1;
    }

    @FunctionalInterface
    interface Lines {
        void line(String format, Object... args);
    }
}

package dev.mnemos.injection;

/**
 * One tool execution of a {@link SessionMemory} step, as its trace keeps it and a {@link StepWriter} sees it. Each text
 * is bounded to {@link #MAX_CHARS} characters (a longer one is cut and ends with {@link #CUT}) and holds no NUL
 * character or unpaired surrogate (each becomes U+FFFD), like every text Mnemos stores; it is data, never an
 * instruction.
 *
 * @param tool the tool's name, as the model called it
 * @param arguments the arguments as the model sent them (JSON text)
 * @param result what the tool returned, as the model received it; null when it failed
 * @param error the failure's message (or the error text the model received); null when it succeeded
 * @param durationMicros how long the execution took
 */
public record ToolRun(String tool, String arguments, String result, String error, long durationMicros) {

    /** Longest text kept per value, in characters. */
    public static final int MAX_CHARS = 2_000;

    /** What ends a value that was cut. */
    public static final String CUT = "…[cut]";

    /** A run with each text bounded and cleaned. */
    public static ToolRun of(String tool, String arguments, String result, String error, long durationNanos) {
        return new ToolRun(bounded(tool), bounded(arguments), bounded(result), bounded(error), durationNanos / 1000);
    }

    /** Whether the execution failed. */
    public boolean failed() {
        return error != null;
    }

    /** {@code text} cleaned and cut to {@link #MAX_CHARS} characters with {@link #CUT} at the end; null stays null. */
    static String bounded(String text) {
        if (text == null) {
            return null;
        }
        String clean = clean(text);
        if (clean.length() <= MAX_CHARS) {
            return clean;
        }
        int end = MAX_CHARS - CUT.length();
        if (Character.isHighSurrogate(clean.charAt(end - 1))) {
            end--;
        }
        return clean.substring(0, end) + CUT;
    }

    private static String clean(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            boolean bad = c == '\0' || (Character.isSurrogate(c) && !paired);
            if (bad && out == null) {
                out = new StringBuilder(text.length()).append(text, 0, i);
            }
            if (out != null) {
                out.append(bad ? '\uFFFD' : c);
                if (paired) {
                    out.append(text.charAt(++i));
                }
            } else if (paired) {
                i++;
            }
        }
        return out == null ? text : out.toString();
    }
}

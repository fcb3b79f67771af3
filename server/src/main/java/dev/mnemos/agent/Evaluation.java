package dev.mnemos.agent;

/**
 * The plan evaluator's answer: a score from 0 to 10 and feedback, stored apart from the plan text.
 * Out-of-range scores are clamped so a sloppy model cannot break the session write.
 */
public record Evaluation(double score, String feedback) {

    public Evaluation {
        score = Double.isNaN(score) ? 0 : Math.max(0, Math.min(10, score));
        feedback = feedback == null ? "" : feedback.strip();
    }
}

package org.acme.trips;

import dev.mnemos.injection.ActingAs;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Questions the application answers in the background: queued by whoever asks, answered by a
 * scheduled job, off any HTTP request. The job names who each answer acts for ({@link ActingAs}): the
 * user who asked.
 */
@ApplicationScoped
public class BackgroundQuestions {

    private record Question(String userId, String sessionId, String text, CompletableFuture<String> answer) {
    }

    private final Queue<Question> queue = new ConcurrentLinkedQueue<>();
    private final TripPlanner planner;

    public BackgroundQuestions(TripPlanner planner) {
        this.planner = planner;
    }

    /** Queues a question for the next run of the job; the answer completes there. */
    public CompletionStage<String> ask(String userId, String sessionId, String text) {
        CompletableFuture<String> answer = new CompletableFuture<>();
        queue.add(new Question(userId, sessionId, text, answer));
        return answer;
    }

    @Scheduled(every = "0.2s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void answerQueued() {
        for (Question q = queue.poll(); q != null; q = queue.poll()) {
            answer(q);
        }
    }

    /** Answers as the user who asked: a scheduled job has no request that tells Mnemos who acts. */
    private void answer(Question q) {
        try {
            q.answer().complete(ActingAs.user(q.userId()).call(() -> planner.suggest(q.sessionId(), q.text())));
        } catch (RuntimeException e) {
            q.answer().completeExceptionally(e);
        }
    }
}

package dev.mnemos.server.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.mnemos.agent.AgentTurn;
import dev.mnemos.agent.Intent;
import dev.mnemos.rest.*;
import dev.mnemos.session.PlanVersion;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.StepPointer;

import java.util.List;

/** Request and response bodies of {@code POST /v1/agent/chat}. */
public final class AgentRequests {

    private AgentRequests() {
    }

    /** One user message; without {@code sessionId} a new task (session) starts. */
    public record Chat(String sessionId, String message) {
    }

    /** A plan version as the chat answer lists it: the evaluation stays apart from the text. */
    public record PlanView(int version, Double score, String feedback, String content) {
        static PlanView of(PlanVersion p) {
            return new PlanView(p.version(), p.score(), p.feedback(), p.content());
        }
    }

    /**
     * The agent's answer. {@code version} and {@code stepPointer} are the session's after the turn;
     * {@code question} is set when the agent asked one; {@code promotion} when the turn ended the task.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Reply(String reply, String sessionId, long version, StepPointer stepPointer, Intent intent,
            String status, String goal, List<PlanView> plans, String question, Object promotion) {

        static Reply of(AgentTurn turn) {
            SessionState s = turn.state();
            return new Reply(turn.reply(), s.sessionId(), s.version(), s.stepPointer(), turn.intent(),
                    s.status().name(), s.goal(), s.plans().stream().map(PlanView::of).toList(), turn.question(),
                    turn.promotion());
        }
    }
}

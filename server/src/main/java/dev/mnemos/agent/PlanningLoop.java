package dev.mnemos.agent;

import dev.langchain4j.agentic.Agent;
import dev.langchain4j.agentic.declarative.ExitCondition;
import dev.langchain4j.agentic.declarative.LoopAgent;
import dev.langchain4j.agentic.scope.AgenticScope;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.V;
import dev.mnemos.injection.agentic.WorkflowScope;

/**
 * The planning turn as a LangChain4j agentic workflow on the session: each round briefs and runs
 * {@link PlanDecomposer} (plan vN), then briefs and runs {@link PlanEvaluator} (its score and feedback), and the loop
 * ends when the score reaches the target or no rewrite is left ({@link PlanningRounds}). The two model agents are
 * {@code @SessionMemory} steps of the session the memory id names; the briefs are written from the session as those
 * steps left it.
 * <p>
 * The scope lives one call ({@link WorkflowScope.Kept#CALL}): what the loop produces is in the session already (the
 * plans, their scores), so a turn adds exactly its steps' versions and reads nothing for the scope.
 */
@WorkflowScope(WorkflowScope.Kept.CALL)
public interface PlanningLoop {

    String ROUNDS = "rounds";
    String PLAN_BRIEF = "planBrief";
    String EVALUATION_BRIEF = "evaluationBrief";

    @LoopAgent(description = "Drafts a plan version and evaluates it, again while the score is below the target", outputKey = ROUNDS, maxIterations = Integer.MAX_VALUE, subAgents = {
            PlanBrief.class, PlanDecomposer.class,
            EvaluationBrief.class, PlanEvaluator.class })
    PlanningRounds plan(@MemoryId String sessionId, @V(ROUNDS) PlanningRounds rounds);

    @ExitCondition(testExitAtLoopEnd = true, description = "the score reached the target, or no rewrite is left")
    static boolean done(@V(ROUNDS) PlanningRounds rounds, AgenticScope scope) {
        return rounds.done(scope);
    }

    /** Writes the decomposer's brief: the next plan version, from the session as the last step left it. */
    class PlanBrief {

        @Agent(description = "Briefs the next plan version", outputKey = PLAN_BRIEF)
        public static String brief(@V(ROUNDS) PlanningRounds rounds, AgenticScope scope) {
            return rounds.planBrief(scope);
        }
    }

    /** Writes the evaluator's brief: the plan version the decomposer just wrote. */
    class EvaluationBrief {

        @Agent(description = "Briefs the evaluation of the newest plan version", outputKey = EVALUATION_BRIEF)
        public static String brief(@V(ROUNDS) PlanningRounds rounds, AgenticScope scope) {
            return rounds.evaluationBrief(scope);
        }
    }
}

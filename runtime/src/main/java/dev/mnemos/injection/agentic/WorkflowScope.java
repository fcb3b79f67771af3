package dev.mnemos.injection.agentic;

import dev.mnemos.injection.SessionMemory;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Where the {@code AgenticScope} of a LangChain4j agentic workflow whose memory id is a session is kept between its
 * calls. Put it on the workflow interface; without it the scope is kept in the session ({@link Kept#SESSION}).
 * <p>
 * Either way the workflow's {@code @SessionMemory} agents are steps of the session. A workflow whose state lives in
 * what its steps write (plans, answers) needs no scope of its own beyond the call: {@link Kept#CALL} adds no version
 * to the session for the scope, and its calls read nothing for it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface WorkflowScope {

    /** Where the scope is kept. */
    Kept value();

    /** Where a workflow's scope is kept between its calls. */
    enum Kept {
        /**
         * In the session, under {@code collected["_mnemos.agentic.<workflow>"]}: each save is a version, so the scope
         * is rolled back and forked with the session.
         */
        SESSION,
        /** Nowhere: each call starts from an empty scope, which is never written to the session. */
        CALL
    }
}

package dev.mnemos.injection;

import dev.mnemos.injection.step.StreamedSteps;
import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Read-before-write for one AI-service method. Put it on a <em>method</em> of a
 * {@code @RegisterAiService} interface that has a {@code @MemoryId String sessionId} parameter
 * (on the interface it applies to every method; the build fails when it sits anywhere else or a
 * method has no {@code @MemoryId}). Before the call the
 * session and the user's profile are loaded and rendered into the block that a system message
 * reads with {@code {inject:memory.block}}; after the call the step is written back as a
 * compare-and-set on the version that was loaded. A method returning {@code Multi<String>} is one
 * step per subscription, written once when the stream completes ({@link StreamedSteps}); other
 * asynchronous results, {@code TokenStream} included, fail the build.
 * <p>
 * On an {@code @Agent} method of a LangChain4j agentic workflow it needs no {@code @MemoryId}: each call of the agent
 * is one step of the session the workflow's memory id names ({@code dev.mnemos.injection.agentic.AgentSteps}).
 */
@InterceptorBinding
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
public @interface SessionMemory {

    /** Step name for the step pointer; the method name when empty. */
    @Nonbinding
    String step() default "";

    /** What the answer is: TEXT is stored as the step's answer, PLAN also appends a plan version. */
    @Nonbinding
    StepOutput output() default StepOutput.TEXT;

    /** Decides the patch written after the call; a CDI bean of that class is used when one exists. */
    @Nonbinding
    Class<? extends StepWriter> writer() default DefaultStepWriter.class;
}

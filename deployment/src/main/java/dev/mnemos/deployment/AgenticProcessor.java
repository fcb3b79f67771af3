package dev.mnemos.deployment;

import dev.mnemos.injection.agentic.AgenticRecorder;
import io.quarkus.arc.deployment.BeanContainerBuildItem;
import io.quarkus.arc.deployment.BuildTimeConditionBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.bootstrap.classloading.QuarkusClassLoader;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * Mnemos in LangChain4j agentic workflows, when the application uses quarkus-langchain4j-agentic (else the classes of
 * {@code dev.mnemos.injection.agentic} are left out of the build): wires the session-backed {@code AgenticScopeStore}
 * and the agent-step listener into every workflow bean at start-up.
 */
class AgenticProcessor {

    static final String AGENTIC_PACKAGE = "dev.mnemos.injection.agentic";
    static final DotName AGENT = DotName.createSimple("dev.langchain4j.agentic.Agent");
    /** The annotations that make an interface method a workflow (LangChain4j agentic's declarative API). */
    static final List<DotName> WORKFLOWS = List.of("SequenceAgent", "LoopAgent", "ParallelAgent", "ParallelMapperAgent",
            "ConditionalAgent", "SupervisorAgent", "PlannerAgent").stream()
            .map(name -> DotName.createSimple("dev.langchain4j.agentic.declarative." + name)).toList();

    /** Whether the application has LangChain4j agentic. */
    static final class Present implements BooleanSupplier {
        @Override
        public boolean getAsBoolean() {
            return present();
        }
    }

    static boolean present() {
        return QuarkusClassLoader.isClassPresentAtRuntime(AGENT.toString());
    }

    @BuildStep
    void leaveOutWithoutAgentic(CombinedIndexBuildItem index, BuildProducer<BuildTimeConditionBuildItem> conditions) {
        if (present()) {
            return;
        }
        for (ClassInfo type : index.getIndex().getKnownClasses()) {
            if (AGENTIC_PACKAGE.equals(type.name().packagePrefix())) {
                conditions.produce(new BuildTimeConditionBuildItem(type, false));
            }
        }
    }

    @BuildStep(onlyIf = Present.class)
    UnremovableBeanBuildItem keepAgentSteps() {
        return UnremovableBeanBuildItem.beanClassNames(AGENTIC_PACKAGE + ".AgentSteps",
                AGENTIC_PACKAGE + ".SessionAgenticScopeStore", AGENTIC_PACKAGE + ".UnattachedWorkflows");
    }

    /** The wiring looks every workflow bean up at start-up, used by the application's code or not. */
    @BuildStep(onlyIf = Present.class)
    UnremovableBeanBuildItem keepWorkflows(CombinedIndexBuildItem index) {
        return UnremovableBeanBuildItem.beanTypes(workflows(index).stream().map(DotName::createSimple).toList()
                .toArray(DotName[]::new));
    }

    @BuildStep(onlyIf = Present.class)
    @Record(ExecutionTime.RUNTIME_INIT)
    void wire(CombinedIndexBuildItem index, BeanContainerBuildItem beans, AgenticRecorder recorder) {
        recorder.wire(workflows(index));
    }

    /** The application's workflow interfaces: those with a method annotated {@code @SequenceAgent}, {@code @LoopAgent}, … */
    static Set<String> workflows(CombinedIndexBuildItem index) {
        Set<String> workflows = new TreeSet<>();
        for (DotName workflow : WORKFLOWS) {
            for (AnnotationInstance annotation : index.getIndex().getAnnotations(workflow)) {
                if (annotation.target().kind() == AnnotationTarget.Kind.METHOD
                        && annotation.target().asMethod().declaringClass().isInterface()) {
                    workflows.add(annotation.target().asMethod().declaringClass().name().toString());
                }
            }
        }
        return workflows;
    }
}

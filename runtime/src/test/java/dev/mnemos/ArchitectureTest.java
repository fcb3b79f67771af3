package dev.mnemos;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.mnemos.injection.step.StepThread;
import dev.mnemos.session.AppliedPatch;
import dev.mnemos.session.PlanPage;
import dev.mnemos.session.SessionPage;
import dev.mnemos.session.SessionState;
import dev.mnemos.session.SessionStore;
import io.smallrye.mutiny.Uni;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package rules of docs/architecture.md "Packages", checked on the extension's classes: an import
 * against them fails the build.
 */
class ArchitectureTest {

    private static JavaClasses runtime;

    @BeforeAll
    static void importRuntime() {
        runtime = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.mnemos");
    }

    @Test
    void featurePackagesHaveNoCycles() {
        slices().matching("dev.mnemos.(*)..").should().beFreeOfCycles().check(runtime);
    }

    @Test
    void metricsKnowsNoFeature() {
        noClasses().that().resideInAPackage("dev.mnemos.metrics..").should().dependOnClassesThat()
                .resideInAnyPackage("dev.mnemos.session..", "dev.mnemos.injection..", "dev.mnemos.profile..",
                        "dev.mnemos.promotion..", "dev.mnemos.archive..", "dev.mnemos.erasure..", "dev.mnemos.llm..",
                        "dev.mnemos.rest..", "dev.mnemos.tracing..", "dev.mnemos.devmode..", "dev.mnemos.schema..")
                .check(runtime);
    }

    @Test
    void onlyTheRestApiUsesItself() {
        noClasses().that().resideOutsideOfPackage("dev.mnemos.rest..").should().dependOnClassesThat()
                .resideInAPackage("dev.mnemos.rest..").check(runtime);
    }

    @Test
    void devModeToolsAreUsedByNothingElse() {
        // dev.mnemos.devmode is removed from every build but dev mode's
        noClasses().that().resideOutsideOfPackage("dev.mnemos.devmode..").should().dependOnClassesThat()
                .resideInAPackage("dev.mnemos.devmode..").check(runtime);
    }

    @Test
    void theSessionLayerNeedsNoPostgres() {
        noClasses().that().resideInAnyPackage("dev.mnemos.session..", "dev.mnemos.injection..", "dev.mnemos.tracing..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.mnemos.profile..", "dev.mnemos.promotion..",
                        "dev.mnemos.archive..", "dev.mnemos.erasure..", "dev.mnemos.schema..")
                .check(runtime);
    }

    @Test
    void injectionInternalsAreUsedOnlyByInjection() {
        // dev.mnemos.injection is the API (the annotation, writers, the block, traces, the exceptions, the SPI);
        // step, block, chat and trace are how it works
        noClasses().that().resideOutsideOfPackage("dev.mnemos.injection..").should().dependOnClassesThat()
                .resideInAnyPackage("dev.mnemos.injection.step..", "dev.mnemos.injection.block..",
                        "dev.mnemos.injection.chat..", "dev.mnemos.injection.trace..")
                .check(runtime);
    }

    /**
     * The session store's interface says what a session store does: every method answers a session's own values when it
     * returns (no reply handle to read later, no value of another key read along), and takes no state to compare with.
     */
    @Test
    void theSessionStoreInterfaceAnswersOnlySessionValues() {
        Set<String> answers = Set.of(SessionState.class.getName(), AppliedPatch.class.getName(), PlanPage.class.getName(),
                SessionPage.class.getName(), List.class.getName(), Optional.class.getName(), String.class.getName(),
                Uni.class.getName(), "void");
        for (JavaMethod method : runtime.get(SessionStore.class).getMethods()) {
            assertThat(method.getRawReturnType().getName()).as("what %s answers", method.getFullName()).isIn(answers);
            assertThat(method.getRawParameterTypes()).as("what %s takes", method.getFullName())
                    .noneMatch(type -> type.isEquivalentTo(SessionState.class));
        }
    }

    /**
     * Thread state lives in one place: {@code StepThread}'s one {@code ThreadLocal}, whose slots each name the value a
     * LangChain4j callback needs and cannot get as an argument.
     */
    @Test
    void onlyStepThreadHoldsAThreadLocal() {
        noClasses().that().doNotHaveFullyQualifiedName(StepThread.class.getName())
                .and().doNotHaveFullyQualifiedName(StepThread.Slot.class.getName()).should().dependOnClassesThat()
                .areAssignableTo(ThreadLocal.class).check(runtime);
    }

    /** A step runs on its caller's thread: nothing in the read-before-write path starts a thread of its own. */
    @Test
    void theInjectionPathStartsNoThread() {
        noClasses().that().resideInAPackage("dev.mnemos.injection..").should()
                .callConstructor(Thread.class, Runnable.class).orShould().callConstructor(Thread.class, Runnable.class,
                        String.class)
                .orShould().callMethod(Thread.class, "start").orShould()
                .dependOnClassesThat().haveFullyQualifiedName(Executors.class.getName())
                .orShould().dependOnClassesThat().haveFullyQualifiedName(ThreadFactory.class.getName())
                .check(runtime);
    }
}

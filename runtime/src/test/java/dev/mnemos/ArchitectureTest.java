package dev.mnemos;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

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
}

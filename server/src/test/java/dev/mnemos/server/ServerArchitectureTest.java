package dev.mnemos.server;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The server's package rules (docs/architecture.md "Packages"): the two transports never import each other. */
class ServerArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.mnemos");
    }

    @Test
    void mcpDoesNotUseTheRestApi() {
        noClasses().that().resideInAPackage("dev.mnemos.server.mcp..").should().dependOnClassesThat()
                .resideInAPackage("dev.mnemos.rest..").check(classes);
    }

    @Test
    void theRestApiDoesNotUseMcp() {
        noClasses().that().resideInAPackage("dev.mnemos.rest..").should().dependOnClassesThat()
                .resideInAPackage("dev.mnemos.server.mcp..").check(classes);
    }

    @Test
    void theAgentUsesNoTransport() {
        noClasses().that().resideInAPackage("dev.mnemos.agent..").should().dependOnClassesThat()
                .resideInAnyPackage("dev.mnemos.rest..", "dev.mnemos.server..").check(classes);
    }

    @Test
    void theServerUsesOnlyTheInjectionApi() {
        noClasses().that().resideInAnyPackage("dev.mnemos.agent..", "dev.mnemos.server..").should().dependOnClassesThat()
                .resideInAnyPackage(INJECTION_INTERNALS).check(classes);
    }

    private static final String[] INJECTION_INTERNALS = { "dev.mnemos.injection.step..", "dev.mnemos.injection.block..",
            "dev.mnemos.injection.chat..", "dev.mnemos.injection.trace.." };
}

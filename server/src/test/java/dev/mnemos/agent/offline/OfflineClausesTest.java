package dev.mnemos.agent.offline;

import dev.mnemos.agent.*;
import dev.mnemos.session.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** How the offline model scopes what the user says: this task, standing, or not said. */
class OfflineClausesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "budget 5000 this time | CONSTRAINT | TASK | null",
            "这次预算五千元 | CONSTRAINT | TASK | null",
            "we only have 3 days | CONSTRAINT | TASK | null",
            "no flights | CONSTRAINT | UNKNOWN | null",
            "always answer in Chinese | INSTRUCTION | STABLE | output.language",
            "以后都用中文回答 | INSTRUCTION | STABLE | output.language",
            "from now on keep plans short | INSTRUCTION | STABLE | output.format",
            "I prefer trains this time | PREFERENCE | TASK | null",
            "我喜欢安静的地方 | PREFERENCE | UNKNOWN | null",
            "I'm vegetarian | FACT | UNKNOWN | null" })
    void scopesEachFinding(String clause, Finding.Kind kind, Scope scope, String slot) {
        Finding finding = OfflineClauses.finding(clause).orElseThrow();
        assertThat(finding.kind()).isEqualTo(kind);
        assertThat(finding.scope()).isEqualTo(scope);
        assertThat(finding.slot()).isEqualTo(slot);
        assertThat(finding.text()).isEqualTo(clause);
    }

    @Test
    void aClauseWithoutCuesIsNoFinding() {
        assertThat(OfflineClauses.finding("the weather is nice")).isEmpty();
    }

    @Test
    void theGoalDropsTheLeadIn() {
        assertThat(OfflineClauses.goal("I want to learn Spanish")).isEqualTo("learn Spanish");
        assertThat(OfflineClauses.goal("我想学西班牙语")).isEqualTo("学西班牙语");
    }

    @Test
    void asksForTheFirstUnknownOfGoalTimeAndBudget() {
        assertThat(OfflineClauses.question(false, "", Language.EN)).isEqualTo(Phrase.ASK_GOAL.in(Language.EN));
        assertThat(OfflineClauses.question(true, "learn Spanish", Language.EN)).contains("time");
        assertThat(OfflineClauses.question(true, "learn Spanish in 3 months", Language.ZH)).contains("预算");
        assertThat(OfflineClauses.question(true, "learn Spanish in 3 months, budget 200", Language.EN)).isNull();
    }
}

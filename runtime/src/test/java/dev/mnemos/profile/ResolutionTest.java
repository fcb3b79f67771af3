package dev.mnemos.profile;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ResolutionTest {

    private static FactDraft existing(long id, String slot, String text, TaskState state) {
        return new FactDraft(id, Category.FACT, slot, text, 1.0, SourceKind.USER_STATEMENT, null, state, null, null);
    }

    private static FactDraft fresh(String slot, String text) {
        return FactDraft.fresh(Category.FACT, slot, text, 1.0, SourceKind.INSTRUCTION, null);
    }

    @Test
    void normalisedDuplicateOfExistingFactAddsEvidenceInsteadOfAFact() {
        Resolution r = Resolution.of(List.of(existing(1, null, "Likes pizza.", null), fresh(null, "  likes   PIZZA ")));
        assertThat(r.keep()).extracting(FactDraft::id).containsExactly(1L);
        assertThat(r.duplicates()).containsEntry(1L, 1);
    }

    @Test
    void newFactOnASlotReplacesTheHolder() {
        Resolution r = Resolution.of(List.of(existing(7, "output.language", "Reply in Chinese", null),
                fresh("output.language", "Reply in English")));
        assertThat(r.keep()).hasSize(1);
        assertThat(r.keep().get(0).text()).isEqualTo("Reply in English");
        assertThat(r.keep().get(0).replaces()).isEqualTo(7L);
    }

    @Test
    void lastNewFactOnASlotWins() {
        Resolution r = Resolution.of(List.of(fresh("home.location", "Lives in Beijing"),
                fresh("home.location", "Lives in Shanghai")));
        assertThat(r.keep()).extracting(FactDraft::text).containsExactly("Lives in Shanghai");
    }

    @Test
    void closedTaskStateSurvivesReplacement() {
        Resolution r = Resolution.of(List.of(existing(3, "task.report", "Quarterly report", TaskState.DONE),
                fresh("task.report", "Quarterly report, extended")));
        assertThat(r.keep().get(0).taskState()).isEqualTo(TaskState.DONE);
    }

    @Test
    void chineseDuplicatesAreDetectedToo() {
        Resolution r = Resolution.of(List.of(existing(2, null, "喜欢川菜。", null), fresh(null, "喜欢川菜")));
        assertThat(r.keep()).extracting(FactDraft::id).containsExactly(2L);
    }
}

package dev.mnemos.llm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReconcileParserTest {

    @Test
    void readsJsonWrappedInProseAndCodeFences() {
        String answer = "Sure! Here is the result:\n```json\n{\"operations\": [{\"op\": \"ADD\", \"text\": \"Lives in Shanghai\"}]}\n```\nHope it helps {:";
        assertThat(ReconcileParser.parse(answer, 0)).contains(List.of(
                new ReconcileOp(ReconcileOp.Op.ADD, null, "Lives in Shanghai", null, null)));
    }

    @Test
    void coercesWrongElementTypesAndDropsTextWithoutWords() {
        String answer = "{'memory': [{event: 'update', id: '1', text: 42}, \"Likes tea\", 17, null, {\"op\": \"delete\", \"id\": 0.0},"
                + " {op: 'ADD', text: 'Runs 10 km', category: 3}],}";
        assertThat(ReconcileParser.parse(answer, 2)).contains(List.of(
                new ReconcileOp(ReconcileOp.Op.ADD, null, "Likes tea", null, null),
                new ReconcileOp(ReconcileOp.Op.ADD, null, "Runs 10 km", "3", null)));
    }

    @Test
    void inventedIdTurnsUpdateIntoAddAndDropsDelete() {
        String answer = "{\"operations\": [{\"op\": \"UPDATE\", \"id\": 98765432101, \"text\": \"Vegetarian\"},"
                + "{\"op\": \"DELETE\", \"id\": \"a1b2\"}, {\"op\": \"DELETE\", \"id\": 5}]}";
        assertThat(ReconcileParser.parse(answer, 3)).contains(List.of(
                new ReconcileOp(ReconcileOp.Op.ADD, null, "Vegetarian", null, null)));
    }

    @Test
    void noJsonAtAllIsNoAnswer() {
        assertThat(ReconcileParser.parse("I think the user likes tea.", 0)).isEmpty();
        assertThat(ReconcileParser.parse("{not json at all", 0)).isEmpty();
        assertThat(ReconcileParser.parse(null, 0)).isEmpty();
        assertThat(ReconcileParser.parse("{}", 0)).isEmpty();
    }

    @Test
    void onlyGarbageElementsIsNoAnswer() {
        assertThat(ReconcileParser.parse("{\"operations\": [1, true, {\"op\": \"EXPLODE\"}]}", 0)).isEmpty();
    }

    @Test
    void explicitEmptyListMeansNothingToDo() {
        assertThat(ReconcileParser.parse("{\"operations\": []}", 0)).contains(List.of());
    }

    @Test
    void keepsChineseTextExactly() {
        assertThat(ReconcileParser.parse("{\"operations\":[{\"op\":\"ADD\",\"text\":\"以后用中文回答 🙂\"}]}", 0))
                .hasValueSatisfying(ops -> assertThat(ops.get(0).text()).isEqualTo("以后用中文回答 🙂"));
    }
}

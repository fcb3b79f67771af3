package dev.mnemos.llm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ExtractionParserTest {

    @Test
    void readsFactsWithScopeAndCategory() {
        assertThat(ExtractionParser.parse(
                "Result: {\"facts\": [{\"text\": \"偏好中文\", \"category\": \"language\", \"scope\": \"stable\"}, \"Likes tea\"]}"))
                .contains(List.of(new ExtractedFact("偏好中文", "LANGUAGE", "STABLE"), new ExtractedFact("Likes tea", null, null)));
    }

    @Test
    void explicitEmptyAnswerIsValid() {
        assertThat(ExtractionParser.parse("{\"facts\": []}")).contains(List.of());
    }

    @Test
    void garbageIsNoAnswer() {
        assertThat(ExtractionParser.parse("nothing here")).isEmpty();
        assertThat(ExtractionParser.parse("{\"facts\": [{}, [], null]}")).isEmpty();
    }
}

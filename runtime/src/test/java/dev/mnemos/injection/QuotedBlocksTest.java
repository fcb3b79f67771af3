package dev.mnemos.injection;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class QuotedBlocksTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void aPreparedBlockIsWrittenAsTheSameJsonAndIsFoundOnlyAsThatVeryString() throws Exception {
        String block = "<memory-data>\n\"quoted\" \\ back\tslash \u0001 control, 以后都用中文回答 … 🎌\n</memory-data>";
        String copy = new String(block.toCharArray());
        String plain = json.writeValueAsString(injected(copy));

        QuotedBlocks.prepare(block);

        assertThat(QuotedBlocks.of(block)).as("the prepared string").isNotNull();
        assertThat(QuotedBlocks.of(copy)).as("an equal string that was not prepared").isNull();
        assertThat(json.writeValueAsString(injected(block))).isEqualTo(plain);
        assertThat(json.readValue(plain, StepTrace.Injected.class).block()).isEqualTo(block);
    }

    private static StepTrace.Injected injected(String block) {
        return new StepTrace.Injected("sha", block.length(), 10, 1000, false, List.of(1), List.of("f1"), List.of(), block);
    }
}

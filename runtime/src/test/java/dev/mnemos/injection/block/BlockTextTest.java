package dev.mnemos.injection.block;

import dev.mnemos.injection.BlockText;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BlockTextTest {

    @Test
    void quotesEscapeEverythingThatCouldLeaveTheValue() {
        assertThat(BlockText.quote("a\"b\\c\nd<e>\u202Ef")).isEqualTo("\"a\\\"b\\\\c\\nd\\u003ce\\u003e\\u202ef\"");
    }

    @Test
    void lettersOfEveryScriptAndEmojiPassUnchanged() {
        assertThat(BlockText.quote("中文 😀 עברית")).isEqualTo("\"中文 😀 עברית\"");
    }

    @Test
    void tokenEstimateCountsWideCharactersOneEach() {
        assertThat(TokenEstimator.estimate("abcdefgh")).isEqualTo(2);
        assertThat(TokenEstimator.estimate("中文😀")).isEqualTo(3);
        assertThat(TokenEstimator.prefix("abcdefghij", 2)).isEqualTo("abcdefgh");
        assertThat(TokenEstimator.suffix("中文abc", 2)).isEqualTo("文abc");
    }
}

package dev.mnemos.profile;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InstructionTest {

    @Test
    void readsForget() {
        assertThat(Instruction.parse("forget where I live"))
                .isEqualTo(new Instruction.Forget("forget where I live", "where I live"));
        assertThat(Instruction.parse("请忘记我住在哪里")).isInstanceOf(Instruction.Forget.class);
    }

    @Test
    void readsNoLonger() {
        assertThat(Instruction.parse("I no longer like pizza."))
                .isEqualTo(new Instruction.NoLonger("I no longer like pizza.", "like pizza"));
        assertThat(Instruction.parse("我不再吃辣了")).isEqualTo(new Instruction.NoLonger("我不再吃辣了", "吃辣"));
    }

    @Test
    void readsRememberAndStripsTheVerb() {
        assertThat(Instruction.parse("remember that I live in Shanghai")).isEqualTo(
                new Instruction.Remember("remember that I live in Shanghai", "I live in Shanghai"));
        assertThat(Instruction.parse("记住：我对花生过敏")).isEqualTo(new Instruction.Remember("记住：我对花生过敏", "我对花生过敏"));
        assertThat(Instruction.parse("以后用中文回答")).isEqualTo(new Instruction.Remember("以后用中文回答", "以后用中文回答"));
    }

    @Test
    void detectsSlots() {
        assertThat(SlotRules.detect("以后用中文回答")).map(SlotRules.Slot::name).contains("output.language");
        assertThat(SlotRules.detect("Always reply in English")).map(SlotRules.Slot::name).contains("output.language");
        assertThat(SlotRules.detect("I live in Shanghai")).map(SlotRules.Slot::name).contains("home.location");
        assertThat(SlotRules.detect("format answers as bullet points")).map(SlotRules.Slot::name).contains("output.format");
        assertThat(SlotRules.detect("I like pizza")).isEmpty();
    }
}

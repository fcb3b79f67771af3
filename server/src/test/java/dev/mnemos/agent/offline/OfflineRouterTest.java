package dev.mnemos.agent.offline;

import dev.mnemos.agent.*;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The offline model's routing: every intent from several phrasings, English and Chinese. */
class OfflineRouterTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "I want to plan a trip to Japan | INSUFFICIENT_INFO",
            "Help me prepare for my driving exam | INSUFFICIENT_INFO",
            "Budget 5000 yuan this time | INSUFFICIENT_INFO",
            "5 days | INSUFFICIENT_INFO",
            "我想准备一次三天的杭州旅行 | INSUFFICIENT_INFO",
            "这次预算两千元 | INSUFFICIENT_INFO",
            "OK, make the plan | READY_TO_DECOMPOSE",
            "Go ahead and break it down | READY_TO_DECOMPOSE",
            "开始规划吧 | READY_TO_DECOMPOSE",
            "帮我制定计划 | READY_TO_DECOMPOSE",
            "I'm so stressed and tired today | VENTING",
            "ugh, everything sucks | VENTING",
            "工作压力好大，好烦 | VENTING",
            "今天好累啊 | VENTING",
            "What's the capital of France? | UNRECOGNIZED",
            "asdf qwer | UNRECOGNIZED",
            "??? | UNRECOGNIZED",
            "哈哈哈 | UNRECOGNIZED",
            "Can you improve the plan? | REVISE_PLAN",
            "Revise it to be cheaper | REVISE_PLAN",
            "再改进一下 | REVISE_PLAN",
            "Please go back to plan 1 | ROLLBACK_PLAN",
            "Let's revert to the previous version | ROLLBACK_PLAN",
            "回到第一版 | ROLLBACK_PLAN",
            "Done, thanks! | END_TASK",
            "That's all, goodbye | END_TASK",
            "好的，完成 | END_TASK",
            "就这样吧 | END_TASK" })
    void classifiesPhrasing(String message, Intent expected) {
        assertThat(OfflineRouter.classify(message)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "assistant: How much time do you have? | two weeks | true",
            "assistant: 你有多少时间？ | 随便吧 | true",
            "assistant: Noted. | whatever | false",
            "'' | whatever | false",
            "assistant: How long? | ??? | false" })
    void aReplyToTheAgentsQuestionIsItsAnswer(String lastLine, String message, boolean expected) {
        assertThat(OfflineRouter.answersAQuestion("user: I want to learn Go\n" + lastLine, message)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "Please go back to plan 1 | 1", "back to v2 | 2", "go back to the first plan | 1",
            "return to the second version | 2", "回到第一版 | 1", "回到第2版 | 2", "回到最初的计划 | 1",
            "revert to the previous version | null", "退回上一版 | null" })
    void readsThePlanVersionOfARollback(String message, Integer expected) {
        assertThat(OfflineRouter.planVersion(message)).isEqualTo(expected);
    }
}

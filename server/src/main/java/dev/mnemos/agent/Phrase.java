package dev.mnemos.agent;

/** The agent's own sentences around what the models produce, in each language it answers in. */
public enum Phrase {
    NOTED("Noted: %s.", "已记录：%s。"),
    NOTHING_NEW("I could not find a goal or a constraint in that.", "这句话里我没有找到目标或约束。"),
    ASK_GOAL("What do you want to achieve?", "你想完成什么目标？"),
    ENOUGH("I have enough to plan. Say \"make the plan\" when you are ready.", "信息已足够。准备好了就说“开始规划”。"),
    PLAN("Plan v%d (score %s/10):%n%s%nReview: %s", "计划 v%d（评分 %s/10）：%n%s%n评审意见：%s"),
    EARLIER("Earlier versions: %s.", "之前的版本：%s。"),
    NEXT_STEPS("Say \"improve it\", \"go back to plan 1\" or \"done\".", "可以说“再改进一下”、“回到第1版”或“完成”。"),
    NO_PLAN("There is no plan yet; tell me your goal and I will make one.", "还没有计划；告诉我你的目标，我来制定。"),
    NO_SUCH_PLAN("There is no plan v%d; the versions are %s.", "没有第 %d 版计划；现有版本：%s。"),
    ROLLED_BACK("Back to plan v%d (score %s/10):%n%s", "已回到计划 v%d（评分 %s/10）：%n%s"),
    VERSION_GONE("Plan v%d is too old to go back to.", "第 %d 版计划太久远，无法回退。"),
    VENTING("That sounds hard, and it is fine to feel that way. When you want, tell me what you would like to get done and we will plan it step by step.",
            "听起来真不容易，有这样的感受很正常。等你愿意时，告诉我想完成什么，我们一步一步来规划。"),
    UNRECOGNIZED("I did not understand that. I help break a goal down into a plan: tell me what you want to achieve.",
            "我没有理解这句话。我可以帮你把目标拆解成计划：告诉我你想完成什么。"),
    ENDED("Task closed with plan v%s. %s", "任务已结束，最终计划 v%s。%s"),
    PROMOTED("Remembered for next time: %s.", "已记住，下次沿用：%s。"),
    NOTHING_PROMOTED("Nothing from this task was kept for the long term.", "本次任务没有需要长期保存的信息。");

    private final String en;
    private final String zh;

    Phrase(String en, String zh) {
        this.en = en;
        this.zh = zh;
    }

    public String in(Language language, Object... args) {
        return String.format(language == Language.ZH ? zh : en, args);
    }
}

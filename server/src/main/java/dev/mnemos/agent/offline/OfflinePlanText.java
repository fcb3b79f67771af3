package dev.mnemos.agent.offline;

import dev.mnemos.agent.*;

import java.util.List;

/** The sentences of the offline planner and reviewer, in English and Chinese. */
record OfflinePlanText(Language language) {

    static OfflinePlanText of(Language language) {
        return new OfflinePlanText(language);
    }

    private boolean zh() {
        return language == Language.ZH;
    }

    String title(String goal) {
        return zh() ? "计划：" + goal : "Plan: " + goal;
    }

    List<String> outline(String goal) {
        return zh() ? List.of("明确“" + goal + "”完成时的样子，写下终点", "列出所需的一切并准备齐全",
                "把主要工作分成小块，按顺序完成", "收尾，并对照目标检查结果")
                : List.of("Define what done looks like for \"" + goal + "\" and write down the finish line",
                        "List everything you need and gather it", "Do the main work in small, ordered pieces",
                        "Wrap up and check the result against the goal");
    }

    String respect(String constraint) {
        return zh() ? "遵守约束“" + constraint + "”：每一步都在这个范围内安排" : "Respect \"" + constraint + "\": fit every step within it";
    }

    String timeline() {
        return zh() ? "时间安排：为每一步定下日期，留出缓冲" : "Timeline: put a date on every step and keep a buffer";
    }

    String checkpoint(String goal) {
        return zh() ? "检查点：中途复盘进度，对照“" + goal + "”调整"
                : "Checkpoint: halfway, review progress against \"" + goal + "\" and adjust";
    }

    String remark(String remark) {
        return zh() ? "按你的要求调整：" + remark : "Adjust as you asked: " + remark;
    }

    String timelineCue() {
        return zh() ? "时间安排" : "Timeline";
    }

    String checkpointCue() {
        return zh() ? "检查点" : "Checkpoint";
    }

    String missingConstraint(String constraint) {
        return zh() ? "计划没有体现约束“" + constraint + "”" : "The plan does not show the constraint \"" + constraint + "\"";
    }

    String missingTimeline() {
        return zh() ? "加上时间安排：每一步何时完成" : "Add a Timeline: when each step happens";
    }

    String missingCheckpoint() {
        return zh() ? "加一个检查点，中途复盘进度" : "Add a Checkpoint to review progress halfway";
    }

    String missingGoal() {
        return zh() ? "步骤没有提到目标" : "The steps do not mention the goal";
    }

    String tooShort() {
        return zh() ? "至少拆成三步" : "Break the work into at least three steps";
    }

    String complete() {
        return zh() ? "没有明显缺漏" : "Nothing obvious is missing";
    }
}

package dev.mnemos.agent.offline;

import java.util.regex.Pattern;

/**
 * The English and Chinese cue words the offline model recognises. Heuristics, not understanding:
 * good enough to walk the whole flow without a model; a configured model replaces them entirely.
 */
enum Cues {
    ROLLBACK(
            "\\b(go(ing)? back|back to|revert|roll ?back|return to|restore|undo)\\b.*\\b(plan|version|v\\d+|draft)\\b|\\buse (plan|version|v) ?\\d+|\\b(previous|earlier|original|first) (plan|version) (was|is) better|回到|退回|回退|恢复|还原|用回"),
    END("^(ok(ay)?|great|good|perfect|thanks?( you)?|cool|fine|yes)?[ ,.!]*(i'?m |we'?re |we are |i am )?(done|finished|that'?s (all|it)|that is (all|it)|end (the|this) task|close (the|this) task|bye|goodbye)\\b|^(好的?|好吧|谢谢)?[，,。！ ]*(完成|结束|就这样|就到这|再见|可以结束)"),
    REVISE("\\b(improve|revise|rewrite|refine|better|polish|update|change|adjust|tweak)\\b.*\\b(it|plan|this|that|steps?)\\b|^(improve|revise|rewrite|refine)|改进|优化|修改|完善|再改|调整|改一下"),
    READY("\\b(make|create|draft|write|give me|build|generate|produce|show me)\\b.*\\bplan\\b|\\bplan it\\b|break (it|this) down|go ahead|let'?s plan|start planning|that'?s everything|开始规划|制定计划|做个计划|做计划|拆解|给我.*计划|出.*计划|开始吧|可以开始"),
    VENTING("\\b(stressed|tired|overwhelmed|frustrated|exhausted|anxious|burn(ed|t) out|sad|angry|upset|fed up|hate|sucks|ugh|sigh)\\b|烦|累|崩溃|压力|焦虑|难受|郁闷|受不了|伤心|生气"),
    GOAL("\\b(i want to|i'?d like to|i would like to|i need to|help me( to)?|my goal is( to)?|i'?m planning to|i plan to|i am planning to|we want to|we need to|i'?m trying to)\\b|我想|我要|想要|帮我|我的目标是|目标是|打算|准备"),
    TASK_CONTENT(
            "\\b(plan|trip|learn|build|prepare|organi[sz]e|write|study|move|launch|project|exam|budget|deadline|days?|weeks?|months?|hours?|within|before|at most|must|can'?t|cannot|prefer|always|never|from now on|every time)\\b|\\d|计划|旅行|学习|准备|整理|项目|考试|预算|截止|[0-9一二三四五六七八九十两]+\\s*(天|周|个月|小时)|之前|以内|不超过|必须|不能|不要|喜欢|偏好|以后|每次|总是|一直|这次|本次"),
    TASK_SCOPE(
            "\\b(this time|this trip|today|tonight|this week(end)?|for this( task| trip| project)?|this once|just once)\\b|本次|这次|今天|这周|这一次|这趟|今晚"),
    STABLE_SCOPE("\\b(always|from now on|every time|in general|whenever|all my|forever|by default)\\b|以后|每次|一直|总是|永远|始终|默认"),
    LANGUAGE("\\b(in|using|use) (chinese|english|mandarin)\\b|用中文|用英文|说中文|中文回答|英文回答"),
    FORMAT("\\b(bullet|numbered|table|concise|brief|short|markdown)\\b|列表|表格|简洁|简短|要点"),
    PREFERENCE("\\b(i prefer|i'?d rather|i like|i love|i enjoy|i hate|i don'?t like|i dislike)\\b|我喜欢|我偏好|我更喜欢|我不喜欢|我讨厌|更想"),
    FACT("\\b(i'?m a|i am a|i work as|i'?m vegetarian|i am vegetarian|i'?m allergic|i have (a|two|three|kids)|my (job|wife|husband|kids|partner))\\b|我是|我有|我对.*过敏|吃素"),
    CONSTRAINT(
            "\\b(budget|deadline|within|before|by|at most|no more than|max(imum)?|must|can'?t|cannot|don'?t|no|only|without|avoid|need)\\b|\\d|预算|截止|[0-9一二三四五六七八九十两]+\\s*(天|周|个月|小时|元|块)|之前|以内|不超过|最多|必须|不能|不要|只|避免|元"),
    TIME("\\b(\\d+|one|two|three|four|five|six|seven|ten)[- ]?(days?|weeks?|months?|hours?|years?)\\b|\\b(deadline|by (monday|tuesday|wednesday|thursday|friday|saturday|sunday|next|the end|tomorrow)|within|until)\\b|[0-9一二三四五六七八九十两]+\\s*(天|周|个月|小时|年)|截止|之前|以内"),
    BUDGET("\\b(budget|cost|money|dollars?|euros?|yuan|rmb|usd|\\$|spend|afford|free)\\b|[$€¥£]|预算|钱|花费|费用|元|块");

    private final Pattern pattern;

    Cues(String regex) {
        this.pattern = Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }

    boolean in(String text) {
        return pattern.matcher(text).find();
    }
}

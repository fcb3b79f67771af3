package dev.mnemos.promotion;

import java.util.List;
import java.util.regex.Pattern;

/** Chinese scope markers. */
public final class ChineseMarkers implements MarkerSet {

    @Override
    public String language() {
        return "zh";
    }

    @Override
    public List<String> standing() {
        return List.of("以后都", "以后", "今后", "每次都", "每次", "一直", "总是", "永远", "从现在起", "从现在开始", "往后", "始终", "默认");
    }

    private static final String TRANSIENT = "喝了|吃了|喝过|吃过|受伤|扭伤|感冒|生病|发烧|累了|太累|疼|不舒服|宿醉";

    @Override
    public List<String> temporary() {
        return List.of("本次", "这次", "这一次", "今天", "今晚", "明天", "这周", "本周", "这个任务", "这回", "暂时", "目前先", "先这样", "此次");
    }

    @Override
    public List<Pattern> taskPatterns() {
        return List.of(
                Pattern.compile("预算|\\d+\\s?(元|块|万)|人民币"),
                Pattern.compile("截止|截至|之前完成|前交"),
                // a one-off circumstance (something eaten, an injury, an illness) given as the reason
                Pattern.compile("(" + TRANSIENT + ").*(所以|因此)"),
                Pattern.compile("(因为|由于).*(" + TRANSIENT + ")"));
    }
}

package dev.mnemos.promotion;

import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class PromotionPolicyTest {

    private final PromotionPolicy policy = new PromotionPolicy(Markers.DEFAULT, 0.8, 0.3, 3);

    private static Candidate said(String text, boolean explicit) {
        return Candidate.of(new Observation("o1", text, Observation.Kind.PREFERENCE, Scope.UNKNOWN, null, explicit, null));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            From now on, reply in Chinese                        | PROMOTE
            Always use metric units                              | PROMOTE
            Every time you write code, add type hints            | PROMOTE
            以后都用中文回答                                        | PROMOTE
            每次都给我列出参考资料                                   | PROMOTE
            今后请用表格总结                                        | PROMOTE
            Reply in English this time                           | REJECT
            Today I want short answers                           | REJECT
            My budget is $500                                    | REJECT
            The deadline is Friday                               | REJECT
            I had milk today so no crab                          | REJECT
            For this task, skip the introduction                 | REJECT
            本次预算5000元                                          | REJECT
            这次用英文回答                                          | REJECT
            今天不想吃辣                                            | REJECT
            我刚喝了牛奶所以不吃螃蟹                                  | REJECT
            My knee hurts, so no hiking                          | REJECT
            No running because I sprained my ankle               | REJECT
            I have a cold so nothing iced please                 | REJECT
            我腿受伤了所以不爬山                                     | REJECT
            因为感冒了，不要冰饮                                      | REJECT
            I'm vegetarian, so never suggest meat                | PROMOTE
            我是素食者，以后都不要推荐肉                               | PROMOTE
            Prefers bullet points                                | PENDING
            喜欢简洁的回答                                          | PENDING
            Sushi for dinner on the last day                     | REJECT
            博物馆换成公园                                          | REJECT
            I've got a migraine, so keep the reply short         | REJECT
            Cats make me sneeze                                  | PENDING
            冷天我不太行                                            | PENDING
            I swim every morning                                 | PROMOTE
            Je cours tous les matins                             | PROMOTE
            我每周五在家办公                                         | PROMOTE
            Plan a museum every day                              | REJECT
            每天安排两个景点                                         | REJECT
            My bike has a flat tyre, so we'll walk              | REJECT
            The boat is full, so we walk                         | REJECT
            Die Fähre fällt aus, wir bleiben in der Stadt        | REJECT
            充电器忘在家了，路线经过手机店                              | REJECT
            時差ぼけなので、朝はゆっくり                               | REJECT
            Hot weather wipes me out                             | PENDING
            Me levanto temprano por la mañana                    | PENDING
            辛いものが苦手                                          | PENDING
            Opera isn't really my thing                          | PROMOTE
            Los cruceros no son lo mío                           | PROMOTE
            """)
    void decidesFromTheUsersWords(String text, Verdict expected) {
        assertThat(policy.decide(said(text, true), Evidence.NONE).verdict()).isEqualTo(expected);
    }

    @Test
    void temporaryMarkerBeatsStandingMarker() {
        Decision d = policy.decide(said("From now on... well, just this time, use English", true), Evidence.NONE);
        assertThat(d.verdict()).isEqualTo(Verdict.REJECT);
        assertThat(d.reason()).contains("this time");
    }

    @Test
    void declaredTaskScopeIsNeverPromotedEvenWhenConfirmed() {
        Candidate c = Candidate
                .of(new Observation("o", "Vegetarian menu", Observation.Kind.PREFERENCE, Scope.TASK, null, true, null));
        assertThat(policy.decide(c, new Evidence(5, 0, true)).verdict()).isEqualTo(Verdict.REJECT);
    }

    @Test
    void implicitPreferenceIsPendingUntilSeenInThreeSessions() {
        Candidate c = said("Prefers bullet points", false);
        assertThat(policy.decide(c, new Evidence(0, 0, false)).verdict()).isEqualTo(Verdict.PENDING);
        assertThat(policy.decide(c, new Evidence(1, 0, false)).verdict()).isEqualTo(Verdict.PENDING);
        Decision third = policy.decide(c, new Evidence(2, 0, false));
        assertThat(third.verdict()).isEqualTo(Verdict.PROMOTE);
        assertThat(third.reason()).contains("3 of 3 sessions");
    }

    @Test
    void contradictionsLowerConfidence() {
        Candidate c = said("Prefers bullet points", false);
        assertThat(policy.decide(c, new Evidence(2, 1, false)).verdict()).isEqualTo(Verdict.PENDING);
        assertThat(policy.decide(said("Prefers tables", false), new Evidence(0, 1, false)).verdict()).isEqualTo(Verdict.REJECT);
    }

    @Test
    void confirmationPromotes() {
        assertThat(policy.decide(said("Prefers bullet points", false), new Evidence(0, 0, true)).verdict())
                .isEqualTo(Verdict.PROMOTE);
    }

    @Test
    void evidenceTextCountsAsTheUsersWords() {
        Candidate c = Candidate.of(new Observation("o", "Prefers English", Observation.Kind.PREFERENCE, Scope.UNKNOWN,
                "output.language", true, "user: please answer in English this time"));
        assertThat(policy.decide(c, Evidence.NONE).verdict()).isEqualTo(Verdict.REJECT);
    }

    @Test
    void classifiesScopeForTheCurrentTurn() {
        assertThat(policy.scopeOf(said("Reply in English this time", true))).isEqualTo(Scope.TASK);
        assertThat(policy.scopeOf(said("以后都用中文", true))).isEqualTo(Scope.STABLE);
        assertThat(policy.scopeOf(said("I like tea", true))).isEqualTo(Scope.STABLE);
        assertThat(policy.scopeOf(said("Likes tea", false))).isEqualTo(Scope.UNKNOWN);
    }
}

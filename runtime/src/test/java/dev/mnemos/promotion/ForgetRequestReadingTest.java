package dev.mnemos.promotion;

import dev.mnemos.session.Observation;
import dev.mnemos.session.Scope;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** A statement that asks to forget something about the user is a forget request in every shipped language, never a fact. */
class ForgetRequestReadingTest {

    private final PromotionPolicy policy = new PromotionPolicy(Markers.DEFAULT, 0.8, 0.3, 3);

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            forget that I live in Boston                 | I live in Boston
            Please forget that I live in Boston.         | I live in Boston
            Could you forget about my peanut allergy?    | my peanut allergy
            forget my address                            | my address
            Ok, forget that I'm vegetarian               | I'm vegetarian
            Delete the fact that I have two kids         | I have two kids
            忘记我住在北京                                 | 我住在北京
            请忘掉我对花生过敏                              | 我对花生过敏
            Olvida que vivo en Madrid                    | vivo en Madrid
            Por favor, olvídate de que soy vegetariano   | soy vegetariano
            Vergiss, dass ich in Berlin wohne            | ich in Berlin wohne
            Bitte vergiss, dass ich Vegetarier bin       | ich Vegetarier bin
            Oublie que j'habite à Lyon                   | j'habite à Lyon
            Oubliez que je suis végétarien               | je suis végétarien
            東京に住んでいることを忘れて                      | 東京に住んでいる
            私がベジタリアンだということは忘れてください。        | 私がベジタリアンだ
            """)
    void isAForgetRequestWaitingForConfirmation(String text, String target) {
        assertThat(Markers.DEFAULT.clauses(text)).as("one clause").hasSize(1);
        assertThat(Markers.DEFAULT.read(text).kind()).isEqualTo(Reading.Kind.FORGET);
        assertThat(Markers.DEFAULT.forgetTarget(text)).contains(target);
        Decision d = policy.decide(said(text), Evidence.NONE);
        assertThat(d.verdict()).isEqualTo(Verdict.PENDING);
        assertThat(d.reason()).contains("request to forget").doesNotContain(target);
        assertThat(policy.decide(said(text), new Evidence(5, 0, false)).verdict()).as("however often it was said")
                .isEqualTo(Verdict.PENDING);
    }

    @ParameterizedTest
    @ValueSource(strings = { "Don't forget that I'm vegetarian", "Never forget my peanut allergy", "Forget about museums",
            "Forget the hotel, we'll camp", "别忘了我吃素", "不要忘记我对花生过敏", "忘记带充电器了", "傘を忘れて",
            "私がベジタリアンだということを忘れないで", "No olvides que soy vegetariano", "Vergiss das Museum",
            "N'oublie pas que je suis végétarien" })
    void isNoForgetRequest(String text) {
        assertThat(Markers.DEFAULT.clauses(text)).allSatisfy(
                clause -> assertThat(Markers.DEFAULT.read(clause).kind()).as(clause).isNotEqualTo(Reading.Kind.FORGET));
        assertThat(Markers.DEFAULT.forgetTarget(text)).isEmpty();
    }

    private static Candidate said(String text) {
        return Candidate.of(new Observation("o1", text, Observation.Kind.PREFERENCE, Scope.STABLE, null, true, null));
    }
}

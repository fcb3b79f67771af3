package dev.mnemos.promotion;

import dev.mnemos.session.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClausesTest {

    private final Markers markers = Markers.DEFAULT;

    @Test
    void aStandingClauseKeepsItsMarker() {
        assertThat(markers.clauses("From now on, answer with bullet points"))
                .containsExactly("From now on, answer with bullet points");
        assertThat(markers.clauses("以后，回答都用中文")).containsExactly("以后，回答都用中文");
    }

    @Test
    void aMixedSentenceSplitsWhereTheReadingChanges() {
        assertThat(markers.clauses("For this report use bullet points, and always cite sources"))
                .containsExactly("For this report use bullet points", "always cite sources");
        assertThat(markers.clauses("Send it by Friday, but as a rule keep my reports under two pages"))
                .containsExactly("Send it by Friday", "as a rule keep my reports under two pages");
        assertThat(markers.clauses("我一般不吃辣，这次预算三千")).containsExactly("我一般不吃辣", "这次预算三千");
        assertThat(markers.clauses("Hoy reserva el tren de las 10; siempre me siento junto a la ventana"))
                .containsExactly("Hoy reserva el tren de las 10", "siempre me siento junto a la ventana");
    }

    @Test
    void aReasonOrConsequenceStaysWithItsClause() {
        assertThat(markers.clauses("I had milk today, so no crab tonight"))
                .containsExactly("I had milk today, so no crab tonight");
        assertThat(markers.clauses("I'm always on a tight budget, so prefer cheap options"))
                .containsExactly("I'm always on a tight budget, so prefer cheap options");
        assertThat(markers.clauses("Ich habe heute Milch getrunken, also heute Abend keine Krabben"))
                .containsExactly("Ich habe heute Milch getrunken, also heute Abend keine Krabben");
        assertThat(markers.clauses("牛乳を飲んだから、今夜はカニはやめて")).containsExactly("牛乳を飲んだから、今夜はカニはやめて");
    }

    @Test
    void aFragmentWithoutCuesJoinsItsNeighbour() {
        assertThat(markers.clauses("I like jazz, blues and soul")).containsExactly("I like jazz, blues and soul");
        assertThat(markers.clauses("I've moved, I live in Denver now")).containsExactly("I've moved, I live in Denver now");
        assertThat(markers.clauses("")).isEmpty();
    }

    @Test
    void aRequestAndAStatementAboutTheUserStayApart() {
        assertThat(markers.clauses("Rewrite the cover letter, and from now on use British spelling"))
                .containsExactly("Rewrite the cover letter", "from now on use British spelling");
        assertThat(markers.clauses("Move the dinner to Paris, I'm gluten-free"))
                .containsExactly("Move the dinner to Paris", "I'm gluten-free");
        assertThat(markers.clauses("Plan the hike, I'm not a morning person"))
                .containsExactly("Plan the hike", "I'm not a morning person");
        assertThat(markers.clauses("七月找个能带宠物的小屋，我的狗总是跟着我"))
                .containsExactly("七月找个能带宠物的小屋", "我的狗总是跟着我");
        assertThat(markers.clauses("ホテルを探して、たいてい夜中過ぎに着くので"))
                .containsExactly("ホテルを探して", "たいてい夜中過ぎに着くので");
    }

    @Test
    void aRequestRunOnIntoAStatementAboutTheUserIsCutBeforeItsSubject() {
        assertThat(markers.clauses("Book a table for Friday I'm vegetarian"))
                .containsExactly("Book a table for Friday", "I'm vegetarian");
        assertThat(markers.clauses("订去成都的机票我从来不坐红眼航班")).containsExactly("订去成都的机票", "我从来不坐红眼航班");
        // "我" as an object ("帮我") is not a subject: nothing is cut there
        assertThat(markers.clauses("帮我订明天的机票")).containsExactly("帮我订明天的机票");
    }

    @Test
    void bracketsColonsAndDashesSetARemarkApartAsACommaDoes() {
        assertThat(markers.clauses("Book the 18:30 train (I always sit by the window)"))
                .containsExactly("Book the 18:30 train", "I always sit by the window");
        assertThat(markers.clauses("Find a hotel for May 3-5 - I never take rooms below the fifth floor"))
                .containsExactly("Find a hotel for May 3-5", "I never take rooms below the fifth floor");
    }

    @Test
    void aClauseWithoutACueIsReadByItsParts() {
        assertThat(markers.read("I've got a migraine, so keep the reply short").scope()).isEqualTo(Scope.TASK);
        assertThat(markers.read("We saw the cathedral last time, so skip it").scope()).isEqualTo(Scope.TASK);
        assertThat(markers.personal("Cats make me sneeze")).isTrue();
        assertThat(markers.personal("Sushi for dinner on the last day")).isFalse();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            Remember that my flight was moved to 9 am        | EVENT
            Remember I'm vegetarian                          | PROPERTY
            I never eat pork                                 | HABITUAL
            I no longer drink alcohol                        | HABITUAL
            我从来不坐红眼航班                                   | HABITUAL
            I'm always on a tight budget                     | STANDING
            Use a table for this comparison                  | TEMPORARY
            The hotel needs free parking                     | REQUEST
            I had milk today so no crab                      | ONE_OFF
            Prefers aisle seats                              | NONE
            """)
    void readsTheKindOfStatement(String text, Reading.Kind kind) {
        assertThat(markers.read(text).kind()).isEqualTo(kind);
    }

    @Test
    void negationIsCountedNotJustFound() {
        assertThat(markers.negative("I don't eat red meat")).isTrue();
        assertThat(markers.negative("From now on red meat is fine")).isFalse();
        assertThat(markers.negative("I'm no longer allergic to peanuts")).isFalse();
        assertThat(markers.negative("我不再吃辣")).isTrue();
    }

    @Test
    void everyShippedLanguageIsLoadedFromItsFile() {
        assertThat(markers.languages()).containsExactlyElementsOf(Markers.SHIPPED);
        for (String language : List.of("es", "de", "fr", "ja")) {
            MarkerSet set = MarkerSet.load(language, getClass().getClassLoader());
            assertThat(set.patterns(Cue.STANDING)).as(language).isNotEmpty();
            assertThat(set.patterns(Cue.TEMPORARY)).as(language).isNotEmpty();
            assertThat(set.patterns(Cue.ONE_OFF)).as(language).isNotEmpty();
        }
        assertThat(markers.read("Esta noche nada de marisco porque comí gambas a mediodía").scope()).isEqualTo(Scope.TASK);
    }
}

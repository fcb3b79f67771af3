package dev.mnemos.session;

import dev.mnemos.support.RestApi;
import dev.mnemos.testsupport.Tokens;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** With a retention of 10 versions, older versions answer Gone; newer ones still load. */
class SessionRetentionTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
            .overrideConfigKey("quarkus.mnemos.session.history-retention", "10")
            .overrideConfigKey("quarkus.mnemos.session.checkpoint-every", "4"));

    @Inject
    SessionStore store;

    @Test
    void rollbackBeyondRetentionIsGoneAndWithinRetentionWorks() {
        String id = store.create(NewSession.of("u-" + SessionIds.newId(), null).by("t")).sessionId();
        for (int i = 0; i < 30; i++) {
            store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("n", Integer.toString(i)).build()).by("t"));
        }
        assertThatThrownBy(() -> store.rollback(Rollback.of(id, 5).by("t")))
                .isInstanceOfSatisfying(VersionGoneException.class, e -> assertThat(e.oldest()).isEqualTo(22));
        assertThatThrownBy(() -> store.at(id, 21)).isInstanceOf(VersionGoneException.class);
        assertThat(store.get(id).version()).isEqualTo(31);
        assertThat(store.at(id, 22).collected()).containsEntry("n", "20");
        assertThat(store.rollback(Rollback.of(id, 25).by("t")).collected()).containsEntry("n", "23");
    }

    @Test
    void rollbackBeyondRetentionAnswers410OverHttp() {
        String user = "u-" + SessionIds.newId();
        String id = store.create(NewSession.of(user, null).by("t")).sessionId();
        for (int i = 0; i < 20; i++) {
            store.apply(StepWrite.of(id, SessionPatch.builder().putCollected("n", Integer.toString(i)).build()).by("t"));
        }
        RestAssured.given().auth().oauth2(Tokens.user(user))
                .contentType(ContentType.JSON).body(Map.of("toVersion", 3))
                .post("/v1/sessions/{id}/rollback", id).then().statusCode(410)
                .contentType("application/problem+json").body("oldestVersion", Matchers.equalTo(12))
                .body("detail", Matchers.containsString("retention"));
        assertThat(store.get(id).version()).isEqualTo(21);
    }
}

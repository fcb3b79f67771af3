package dev.mnemos.session;

import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PatchValidatorTest {

    static final SessionConfig LIMITS = new SessionConfig() {
        public Duration ttl() {
            return Duration.ofHours(1);
        }

        public int historyRetention() {
            return 500;
        }

        public int checkpointEvery() {
            return 50;
        }

        public int maxTextChars() {
            return 20;
        }

        public int maxPlanChars() {
            return 40;
        }

        public int maxItemsPerPatch() {
            return 3;
        }

        public Duration redisTimeout() {
            return Duration.ofSeconds(3);
        }

        public Duration slowRedisTimeout() {
            return Duration.ofSeconds(5);
        }

        @Override
        public int maxLivePerUser() {
            return 1000;
        }

        @Override
        public long maxSessionBytes() {
            return 1 << 20;
        }

        @Override
        public long maxUserBytes() {
            return 0;
        }
    };

    final PatchValidator validator = new PatchValidator(LIMITS);

    void rejects(SessionPatch patch, String field) {
        assertThatThrownBy(() -> validator.validate(patch)).isInstanceOfSatisfying(InvalidPatchException.class,
                e -> Assertions.assertThat(e.field()).isEqualTo(field));
    }

    @Test
    void emptyPatchIsRejected() {
        rejects(SessionPatch.builder().build(), "patch");
        rejects(null, "patch");
    }

    @Test
    void limitsNameTheOffendingField() {
        rejects(SessionPatch.builder().goal("x".repeat(21)).build(), "patch.goal");
        rejects(SessionPatch.builder().addPlan("x".repeat(41), null, null).build(), "patch.addPlan.content");
        rejects(SessionPatch.builder().addPlan("ok", 11.0, null).build(), "patch.addPlan.score");
        rejects(SessionPatch.builder().evaluatePlan(0, 1.0, null).build(), "patch.evaluatePlan.version");
        rejects(SessionPatch.builder().stepPointer(-1, "x").build(), "patch.stepPointer.index");
        rejects(SessionPatch.builder().addOpenQuestion("a").addOpenQuestion("b").addOpenQuestion("c").addOpenQuestion("d")
                .build(), "patch.addOpenQuestions");
        rejects(SessionPatch.builder().addConstraint(new Constraint(null, " ", null, null)).build(),
                "patch.addConstraints[0].text");
        rejects(SessionPatch.builder().putCollected(" ", "v").build(), "patch.putCollected");
    }

    @Test
    void aReasonablePatchPasses() {
        assertThatCode(() -> validator.validate(SessionPatch.builder().goal("").putCollected("k", "")
                .addPlan("plan", 7.5, "fine").stepPointer(0, "start").build())).doesNotThrowAnyException();
    }
}

package dev.mnemos.injection.step;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import dev.mnemos.injection.MissingMemoryIdException;
import dev.mnemos.injection.SessionMemory;
import io.smallrye.mutiny.Multi;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AiMethodTest {

    interface Service {
        @SessionMemory(step = "s")
        String annotated(@V("topic") String topic, @MemoryId String sessionId, @UserMessage String message);

        @SessionMemory
        String implicit(@MemoryId String sessionId, String message);

        @SessionMemory
        String noMemoryId(String message);

    }

    /** No LangChain4j annotations here: Quarkus LangChain4j would try to derive a JSON schema for the future at build time. */
    interface AsyncService {
        // without @SessionMemory: the build refuses such methods (MnemosProcessor) before any call could
        CompletableFuture<String> async(String sessionId, String message);

        TokenStream tokens(String sessionId, String message);

        @SessionMemory
        Multi<String> stream(@MemoryId String sessionId, String message);
    }

    /** Stands in for the generated {@code $$QuarkusImpl}, whose parameters carry no annotations. */
    static class Impl implements Service {
        public String annotated(String topic, String sessionId, String message) {
            return null;
        }

        public String implicit(String sessionId, String message) {
            return null;
        }

        public String noMemoryId(String message) {
            return null;
        }
    }

    @Test
    void positionsAreReadFromTheInterfaceMethodWhenTheImplementationIsInvoked() throws Exception {
        AiMethod m = AiMethod.of(Impl.class.getMethod("annotated", String.class, String.class, String.class));
        assertThat(m.memoryIdIndex()).isEqualTo(1);
        assertThat(m.userMessageIndex()).isEqualTo(2);
        assertThat(m.step()).isEqualTo("s");
        assertThat(m.sessionId(new Object[] { "t", "s-9", "hi" })).isEqualTo("s-9");
        assertThat(m.userMessage(new Object[] { "t", "s-9", "hi" })).isEqualTo("hi");
    }

    @Test
    void theOnlyOtherStringIsTheUserMessageAndTheStepDefaultsToTheMethodName() throws Exception {
        AiMethod m = AiMethod.of(Impl.class.getMethod("implicit", String.class, String.class));
        assertThat(m.userMessageIndex()).isEqualTo(1);
        assertThat(m.step()).isEqualTo("implicit");
    }

    @Test
    void missingOrBlankSessionIdIsRefused() throws Exception {
        AiMethod m = AiMethod.of(Impl.class.getMethod("implicit", String.class, String.class));
        assertThatThrownBy(() -> m.sessionId(new Object[] { " ", "hi" })).isInstanceOf(MissingMemoryIdException.class);
        assertThatThrownBy(() -> AiMethod.of(Impl.class.getMethod("noMemoryId", String.class)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("@MemoryId");
    }

    @Test
    void asynchronousResultsOtherThanAStreamOfStringsAreRefused() {
        assertThatThrownBy(() -> AiMethod.of(AsyncService.class.getMethod("async", String.class, String.class)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("AsyncService.async")
                .hasMessageContaining("returns a value (String, a record, …) or streams a Multi<String>");
        assertThatThrownBy(() -> AiMethod.of(AsyncService.class.getMethod("tokens", String.class, String.class)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("TokenStream");
        assertThat(AiMethod.unsupported("io.smallrye.mutiny.Uni", "java.lang.String")).isTrue();
        assertThat(AiMethod.unsupported("io.smallrye.mutiny.Multi", "java.lang.Integer")).isTrue();
        assertThat(AiMethod.unsupported("io.smallrye.mutiny.Multi", "java.lang.String")).isFalse();
        assertThat(AiMethod.unsupported("java.lang.String", null)).isFalse();
    }

    @Test
    void aStreamOfStringsIsAStreamedStepAndAValueIsNot() throws Exception {
        assertThat(AiMethod.of(AsyncService.class.getMethod("stream", String.class, String.class)).result())
                .isEqualTo(AiMethod.Result.STREAM);
        assertThat(AiMethod.of(Impl.class.getMethod("implicit", String.class, String.class)).result())
                .isEqualTo(AiMethod.Result.VALUE);
    }
}

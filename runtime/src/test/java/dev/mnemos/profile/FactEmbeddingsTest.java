package dev.mnemos.profile;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FactEmbeddingsTest {

    private static FactDraft fact(long id, String text, float[] vector) {
        return new FactDraft(id, Category.FACT, null, text, 1, SourceKind.USER_STATEMENT, null, null, null, vector);
    }

    @Test
    void unloadableModelFallsBackToNoEmbeddings() {
        FactEmbeddings broken = new FactEmbeddings(() -> {
            throw new UnsatisfiedLinkError("libtokenizers.so already loaded in another classloader");
        });
        assertThat(broken.embed("likes tea")).isNull();
        assertThat(broken.embed("likes coffee")).isNull();
        assertThat(FactEmbeddings.nearest(null, List.of(fact(1, "likes tea", new float[] { 1, 0 })), 0, 5)).isEmpty();
    }

    @Test
    void theModelIsAskedOncePerText() {
        List<String> asked = new ArrayList<>();
        EmbeddingModel model = new EmbeddingModel() {
            @Override
            public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
                segments.forEach(s -> asked.add(s.text()));
                return Response.from(segments.stream().map(s -> Embedding.from(new float[] { s.text().length(), 1 })).toList());
            }
        };
        FactEmbeddings embeddings = new FactEmbeddings(() -> model);
        float[] tea = embeddings.embed("likes tea");
        assertThat(embeddings.embed("likes tea")).containsExactly(tea);
        assertThat(embeddings.embed("likes green tea")).containsExactly(15, 1);
        assertThat(asked).containsExactly("likes tea", "likes green tea");
        assertThat(embeddings.modelCalls()).isEqualTo(2);
    }

    @Test
    void nearestRanksBySimilarityAndRespectsTheFloor() {
        List<FactDraft> facts = List.of(fact(1, "a", new float[] { 1, 0 }), fact(2, "b", new float[] { 0.7f, 0.7f }),
                fact(3, "c", new float[] { 0, 1 }), fact(4, "no vector", null));
        assertThat(FactEmbeddings.nearest(new float[] { 1, 0.1f }, facts, 0.5, 5))
                .extracting(s -> s.fact().id()).containsExactly(1L, 2L);
    }

    @Test
    void embeddingsRoundTripThroughBytes() {
        float[] v = { 0.25f, -1.5f, 3e-8f };
        assertThat(FactEmbeddings.decode(FactEmbeddings.encode(v))).containsExactly(v);
        assertThat(FactEmbeddings.encode(null)).isNull();
    }
}

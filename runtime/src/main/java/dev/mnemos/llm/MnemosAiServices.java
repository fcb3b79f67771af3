package dev.mnemos.llm;

import dev.langchain4j.service.AiServices;
import io.quarkiverse.langchain4j.CreatedAware;
import io.quarkus.qute.Qute;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds Mnemos' own AI services, {@link ExtractionAi}, {@link ReconcileAi} and {@link SessionSummaryAi}, with
 * LangChain4j's {@link AiServices} builder rather than {@code @RegisterAiService}: Quarkus LangChain4j lists every
 * declarative AI service on its Dev UI card as one of the application's, and takes any interface with a
 * {@code @SystemMessage} or {@code @UserMessage} for a declarative one. So the three interfaces carry no prompt
 * annotation, only {@link CreatedAware}, which still has Quarkus generate their implementations at build time.
 * <ul>
 * <li>The system message is the prompt file in {@code prompts/}, rendered with Qute as the annotation was.</li>
 * <li>The user message is the method's one argument.</li>
 * <li>The model is the one {@link MnemosModelSupplier} finds; no chat memory, no tools.</li>
 * <li>A service is built on its first call, so an application without a model never builds one.</li>
 * </ul>
 */
@ApplicationScoped
public class MnemosAiServices {

    static final String EXTRACTION = "prompts/fact-extraction.txt";
    static final String RECONCILE = "prompts/reconcile.txt";
    static final String SUMMARY = "prompts/session-summary.txt";

    private final Map<Integer, SessionSummaryAi> summaries = new ConcurrentHashMap<>();

    @Produces
    @ApplicationScoped
    ExtractionAi extraction() {
        return create(ExtractionAi.class, EXTRACTION, Map.of());
    }

    @Produces
    @ApplicationScoped
    ReconcileAi reconcile() {
        return create(ReconcileAi.class, RECONCILE, Map.of());
    }

    /** The session-summary service for summaries of at most {@code maxChars} characters, built once per length. */
    public SessionSummaryAi summary(int maxChars) {
        return summaries.computeIfAbsent(maxChars,
                max -> create(SessionSummaryAi.class, SUMMARY, Map.of("maxChars", max)));
    }

    static <T> T create(Class<T> type, String prompt, Map<String, Object> data) {
        String system = Qute.fmt(read(prompt), data);
        return AiServices.builder(type).chatModel(new MnemosModelSupplier().get())
                .systemMessageProvider(memoryId -> system).build();
    }

    private static String read(String resource) {
        try (InputStream in = MnemosAiServices.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the prompt " + resource + " is missing from quarkus-mnemos");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.mnemos.injection.step;

import dev.langchain4j.model.chat.listener.ChatModelErrorContext;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.listener.ChatModelRequestContext;
import dev.langchain4j.model.chat.listener.ChatModelResponseContext;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.function.Supplier;

/**
 * How the provider ended each streamed step's model call, as LangChain4j's model listeners see it: an AI service's
 * {@code Multi<String>} completes even when the provider's stream broke off (a malformed chunk, a stream closed without
 * a finish reason), so the stream's completion alone does not say the answer is whole.
 * <p>
 * A streamed step's subscription names its answer on the subscribing thread ({@link #subscribing}); the model's
 * request is sent from that thread, so the listener ties the request, and then its response, to the answer. A model
 * that calls no listeners (one built outside quarkus-langchain4j without them) leaves the answer unseen, and its
 * stream's completion is taken as the end, as before.
 */
@ApplicationScoped
@Unremovable
public class StreamFinishes implements ChatModelListener {

    private static final String ANSWER = StreamFinishes.class.getName();
    private static final StepThread.Slot<StreamedAnswer> SUBSCRIBING = StepThread.slot();

    /** Runs {@code subscribe} (the subscription of a streamed step's model call) with {@code answer} named. */
    static <T> T subscribing(StreamedAnswer answer, Supplier<T> subscribe) {
        SUBSCRIBING.set(answer);
        try {
            return subscribe.get();
        } finally {
            SUBSCRIBING.remove();
        }
    }

    @Override
    public void onRequest(ChatModelRequestContext context) {
        StreamedAnswer answer = SUBSCRIBING.get();
        if (answer != null) {
            context.attributes().put(ANSWER, answer);
            answer.requested();
        }
    }

    @Override
    public void onResponse(ChatModelResponseContext context) {
        if (context.attributes().get(ANSWER) instanceof StreamedAnswer answer) {
            answer.finished(context.chatResponse().finishReason());
        }
    }

    @Override
    public void onError(ChatModelErrorContext context) {
        if (context.attributes().get(ANSWER) instanceof StreamedAnswer answer) {
            answer.failed(context.error());
        }
    }
}

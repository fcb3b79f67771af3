package dev.mnemos.agent.offline;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Typed;
import org.jboss.logging.Logger;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deterministic offline model: no network, no randomness. It reads the {@code #prompt: name}
 * marker of the system message and hands the request to the {@link OfflineResponder} for that
 * prompt. A prompt without a responder gets an empty JSON object, which every Mnemos parser treats
 * as "no answer" and falls back from.
 */
@ApplicationScoped
@Typed(OfflineChatModel.class)
public class OfflineChatModel implements ChatModel {

    private static final Logger LOG = Logger.getLogger(OfflineChatModel.class);
    private static final Pattern MARKER = Pattern.compile("#prompt:\\s*([\\w.-]+)");

    private final Instance<OfflineResponder> responders;

    public OfflineChatModel(Instance<OfflineResponder> responders) {
        this.responders = responders;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        String prompt = promptName(request).orElse("");
        String answer = responders.stream().filter(r -> r.prompt().equals(prompt)).findFirst()
                .map(r -> r.respond(request)).orElse("{}");
        LOG.debugf("offline model answered prompt '%s'", prompt);
        return ChatResponse.builder().aiMessage(AiMessage.from(answer)).build();
    }

    /** The prompt name from the marker line of the request's system message. */
    public static Optional<String> promptName(ChatRequest request) {
        for (ChatMessage message : request.messages()) {
            if (message instanceof SystemMessage system) {
                Matcher m = MARKER.matcher(system.text());
                if (m.find()) {
                    return Optional.of(m.group(1));
                }
            }
        }
        return Optional.empty();
    }
}

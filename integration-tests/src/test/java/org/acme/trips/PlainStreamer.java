package org.acme.trips;

import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import io.quarkiverse.langchain4j.RegisterAiService;
import io.smallrye.mutiny.Multi;
import jakarta.enterprise.context.ApplicationScoped;

/** The planner's streamed question without Mnemos: the benchmark's baseline (the model client and the stub alone). */
@RegisterAiService(chatMemoryProviderSupplier = RegisterAiService.NoChatMemoryProviderSupplier.class)
@ApplicationScoped
public interface PlainStreamer {

    @SystemMessage("You are a travel planner. Answer in at most two sentences and respect every constraint.")
    Multi<String> stream(@UserMessage String request);
}

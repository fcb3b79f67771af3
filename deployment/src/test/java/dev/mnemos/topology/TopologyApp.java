package dev.mnemos.topology;

import dev.mnemos.support.JtokkitTokenizer;
import dev.mnemos.support.Requests;
import dev.mnemos.support.RestApi;
import dev.mnemos.support.ScriptedChatModel;
import dev.mnemos.testsupport.MessageKeyWriter;
import dev.mnemos.testsupport.TripAi;
import io.quarkus.test.QuarkusUnitTest;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The application of a topology test: the test's Redis, started before the application and stopped after it, and
 * otherwise the same application for every topology, with Mnemos' default settings: only {@code quarkus.redis.*}
 * and {@code quarkus.tls.*} differ from one topology to the next.
 */
final class TopologyApp {

    private TopologyApp() {
    }

    /**
     * @param start starts the Redis and answers the configuration that points the application at it
     * @param stop stops it and removes its files
     * @param launchers the classes that start it, which the test class names
     */
    static QuarkusUnitTest against(Supplier<Map<String, String>> start, Runnable stop, Class<?>... launchers) {
        QuarkusUnitTest app = RestApi.on(new QuarkusUnitTest().withConfigurationResource("mnemos-test.properties")
                // as every REST test: Mnemos' extraction at the end takes its deterministic path, not the scripted model
                .overrideConfigKey("quarkus.mnemos.llm.enabled", "false"),
                jar -> jar.addClasses(TripAi.class, TripAi.Advice.class, MessageKeyWriter.class, ScriptedChatModel.class,
                        JtokkitTokenizer.class, Requests.class, SessionRoundTrip.class, RedisProcess.class,
                        TestDirectory.class, TopologyApp.class).addClasses(launchers));
        return app.setBeforeAllCustomizer(() -> start.get().forEach(app::overrideConfigKey)).setAfterAllCustomizer(stop);
    }
}

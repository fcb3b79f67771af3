package dev.mnemos.deployment;

import dev.mnemos.injection.SessionMemory;
import dev.mnemos.injection.step.AiMethod;
import dev.mnemos.injection.step.SessionMemoryInterceptor;
import dev.mnemos.profile.ProfileCache;
import dev.mnemos.session.MnemosRedisClient;
import dev.mnemos.session.MnemosRedisConfig;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.BuildTimeConditionBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.IndexDependencyBuildItem;
import io.quarkus.deployment.builditem.RunTimeConfigurationDefaultBuildItem;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceDirectoryBuildItem;
import io.quarkus.redis.deployment.client.RequestedRedisClientBuildItem;
import io.quarkus.redis.runtime.client.config.RedisConfig;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Build steps of the Mnemos extension: indexes the runtime jar (its beans, entities and AI
 * services), registers the {@link SessionMemory} interceptor, keeps the application's embedding
 * models, and mounts the REST API only when {@code quarkus.mnemos.rest.enabled=true}.
 */
class MnemosProcessor {

    static final String FEATURE = "mnemos";
    static final String REST_PACKAGE = "dev.mnemos.rest";
    static final DotName EMBEDDING_MODEL = DotName.createSimple("dev.langchain4j.model.embedding.EmbeddingModel");
    static final DotName SESSION_MEMORY = DotName.createSimple(SessionMemory.class);

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    /**
     * Bounds of the profile read cache; an application overrides them like any other property. Without the profile
     * layer there is no Quarkus Cache to read them, and an unknown key would be warned about.
     */
    @BuildStep
    void profileCacheDefaults(Capabilities capabilities, BuildProducer<RunTimeConfigurationDefaultBuildItem> defaults) {
        if (!ProfileLayerProcessor.present(capabilities)) {
            return;
        }
        String prefix = "quarkus.cache.caffeine.\"" + ProfileCache.NAME + "\".";
        defaults.produce(new RunTimeConfigurationDefaultBuildItem(prefix + "maximum-size", "10000"));
        defaults.produce(new RunTimeConfigurationDefaultBuildItem(prefix + "expire-after-access", "10M"));
        if (capabilities.isPresent(Capability.METRICS)) {
            // without a metrics extension, Quarkus Cache warns at every start that it records none
            defaults.produce(new RunTimeConfigurationDefaultBuildItem(prefix + "metrics-enabled", "true"));
        }
    }

    /**
     * Quarkus creates the Redis client Mnemos uses ({@code quarkus.mnemos.redis-client-name}, the default client when
     * unset) even when no bean of the application injects it: Mnemos' beans look it up by name ({@link MnemosRedisClient}).
     */
    @BuildStep
    RequestedRedisClientBuildItem mnemosRedisClient(MnemosRedisConfig config) {
        return new RequestedRedisClientBuildItem(config.redisClientName().orElse(RedisConfig.DEFAULT_CLIENT_NAME));
    }

    /**
     * The pool of the Redis client Mnemos uses: its own defaults (24 waiting for one of 6 connections) refuse a burst of
     * concurrent steps with {@code ConnectionPoolTooBusyException} long before a step's timeout; 256 concurrent steps
     * with their chat windows and traces overflowed even a queue of 1,024 on a loaded machine. 32 connections and a queue
     * of 8,192; an application's own settings win.
     */
    @BuildStep
    void redisPoolDefaults(MnemosRedisConfig config, BuildProducer<RunTimeConfigurationDefaultBuildItem> defaults) {
        String prefix = config.redisClientName().map(name -> "quarkus.redis." + name + ".").orElse("quarkus.redis.");
        defaults.produce(new RunTimeConfigurationDefaultBuildItem(prefix + "max-pool-size", "32"));
        defaults.produce(new RunTimeConfigurationDefaultBuildItem(prefix + "max-pool-waiting", "8192"));
    }

    /**
     * The datasource validates a pooled connection before lending it: after a Postgres restart every pooled
     * connection is dead, and without this each one failed one request (a 503) before the pool dropped it. An
     * application overrides it like any other property.
     */
    @BuildStep
    void datasourceDefaults(Capabilities capabilities, BuildProducer<RunTimeConfigurationDefaultBuildItem> defaults) {
        if (ProfileLayerProcessor.present(capabilities) && capabilities.isPresent(Capability.AGROAL)) {
            defaults.produce(new RunTimeConfigurationDefaultBuildItem("quarkus.datasource.jdbc.validate-on-borrow", "true"));
        }
    }

    @BuildStep
    IndexDependencyBuildItem indexRuntime() {
        return new IndexDependencyBuildItem("dev.mnemos", "quarkus-mnemos");
    }

    @BuildStep
    AdditionalBeanBuildItem interceptor() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(SessionMemory.class, SessionMemoryInterceptor.class)
                .setUnremovable().build();
    }

    /**
     * Mnemos looks the application's {@code EmbeddingModel} up programmatically (an injection point
     * would make Quarkus LangChain4j demand a provider), so such a bean must survive unused-bean removal.
     */
    @BuildStep
    UnremovableBeanBuildItem embeddingModels() {
        return UnremovableBeanBuildItem.beanTypes(EMBEDDING_MODEL);
    }

    /**
     * A writer named by {@code @SessionMemory(writer = …)} is looked up when its step runs, which unused-bean removal
     * cannot see: a writer that is a bean stays one, or it would be made with its constructor, without its injections.
     */
    @BuildStep
    UnremovableBeanBuildItem stepWriters(CombinedIndexBuildItem index) {
        Set<DotName> writers = new HashSet<>();
        for (AnnotationInstance binding : index.getIndex().getAnnotations(SESSION_MEMORY)) {
            AnnotationValue writer = binding.value("writer");
            if (writer != null) {
                writers.add(writer.asClass().name());
            }
        }
        return UnremovableBeanBuildItem.beanTypes(writers);
    }

    @BuildStep
    void resources(BuildProducer<NativeImageResourceDirectoryBuildItem> resources) {
        resources.produce(new NativeImageResourceDirectoryBuildItem("lua"));
        resources.produce(new NativeImageResourceDirectoryBuildItem("db/mnemos"));
        resources.produce(new NativeImageResourceDirectoryBuildItem("prompts"));
    }

    /**
     * Without the switch, every resource, filter and exception mapper of the REST API is left out of the build.
     * RESTEasy Reactive generates a bean for each {@code @ServerExceptionMapper} / {@code @ServerRequestFilter}
     * method whatever these conditions say, and only a class-level build condition makes it look its declaring
     * bean up lazily instead of injecting it: so the classes holding such methods also carry
     * {@code @IfBuildProperty(name = "quarkus.mnemos.rest.enabled", stringValue = "true")}.
     */
    @BuildStep
    void restSwitch(MnemosBuildConfig config, CombinedIndexBuildItem index,
            BuildProducer<BuildTimeConditionBuildItem> conditions) {
        if (config.rest().enabled()) {
            return;
        }
        for (ClassInfo type : index.getIndex().getKnownClasses()) {
            if (isRestApi(type.name())) {
                conditions.produce(new BuildTimeConditionBuildItem(type, false));
            }
        }
    }

    static boolean isRestApi(DotName name) {
        return REST_PACKAGE.equals(name.packagePrefix());
    }

    /**
     * A {@link SessionMemory} method whose answer its step cannot collect ({@code Uni}, {@code CompletionStage},
     * {@code TokenStream}, a {@code Multi} of anything but {@code String}: see {@link AiMethod#unsupported}) fails the
     * build, naming the method, instead of its first call.
     */
    @BuildStep
    void refuseUnsupportedResults(CombinedIndexBuildItem index, ValidationPhaseBuildItem validation,
            BuildProducer<ValidationErrorBuildItem> errors) {
        for (AnnotationInstance binding : index.getIndex().getAnnotations(SESSION_MEMORY)) {
            for (MethodInfo method : methods(binding.target())) {
                Type type = method.returnType();
                String argument = type.kind() == Type.Kind.PARAMETERIZED_TYPE
                        ? type.asParameterizedType().arguments().get(0).name().toString()
                        : null;
                if (AiMethod.unsupported(type.name().toString(), argument)) {
                    errors.produce(new ValidationErrorBuildItem(new IllegalStateException(
                            AiMethod.unsupportedMessage(method.declaringClass().name() + "#" + method.name(),
                                    type.toString()))));
                }
            }
        }
    }

    /** The methods a binding covers: its method, or the abstract methods of the interface it is on. */
    private static List<MethodInfo> methods(AnnotationTarget target) {
        if (target.kind() == AnnotationTarget.Kind.METHOD) {
            return List.of(target.asMethod());
        }
        if (target.kind() == AnnotationTarget.Kind.CLASS && target.asClass().isInterface()) {
            return target.asClass().methods().stream().filter(m -> Modifier.isAbstract(m.flags())).toList();
        }
        return List.of();
    }
}

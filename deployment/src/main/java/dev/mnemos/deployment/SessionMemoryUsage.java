package dev.mnemos.deployment;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.SessionMemory;
import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the application's index says about its {@link SessionMemory} annotations, found at build time
 * instead of at the first call:
 * <ul>
 * <li>an error when the annotation sits on a class or interface that is not a {@code @RegisterAiService}
 * interface (or one it extends) nor an agent interface of LangChain4j agentic (one with {@code @Agent} methods): the
 * read-before-write only runs around AI-service methods and agents of a workflow;</li>
 * <li>an error when an annotated AI-service method has no {@code @MemoryId} parameter: no session to read or write (an
 * {@code @Agent} method needs none: its session is its workflow's memory id);</li>
 * <li>an error when an annotated {@code @Agent} method streams ({@code Multi}, {@code TokenStream}, a publisher): a
 * workflow hands the stream itself to the next agent, so no step could be written with the answer;</li>
 * <li>a warning when none of an annotated method's prompt templates ({@code @SystemMessage} on the method, else
 * on its interface, and {@code @UserMessage}) holds {@code {inject:memory.block}} or
 * {@code {inject:memory.block(...)}}: the block is loaded for every call and never reaches the model;</li>
 * <li>an error when a prompt template names a property of Mnemos' {@code memory} bean other than {@code block}
 * ({@code {inject:memory.blok}}): Qute would fail every call on it.</li>
 * </ul>
 * Each finding names the method as {@code Class#method}.
 */
final class SessionMemoryUsage {

    static final DotName SESSION_MEMORY = DotName.createSimple(SessionMemory.class);
    static final DotName REGISTER_AI_SERVICE = DotName.createSimple("io.quarkiverse.langchain4j.RegisterAiService");
    static final DotName MEMORY_ID = DotName.createSimple(MemoryId.class);
    static final DotName SYSTEM_MESSAGE = DotName.createSimple(SystemMessage.class);
    static final DotName USER_MESSAGE = DotName.createSimple(UserMessage.class);
    static final DotName INTERCEPTOR = DotName.createSimple("jakarta.interceptor.Interceptor");
    static final DotName AGENT = DotName.createSimple("dev.langchain4j.agentic.Agent");
    /** The stream types an agent method may declare and a step cannot collect. */
    static final Set<String> STREAMS = Set.of("io.smallrye.mutiny.Multi", "dev.langchain4j.service.TokenStream",
            "java.util.concurrent.Flow$Publisher", "org.reactivestreams.Publisher");
    /** The memory block placeholder; {@code cdi:} is Qute's other name for the {@code inject:} namespace. */
    static final Pattern PLACEHOLDER = Pattern.compile("\\{\\s*(inject|cdi):memory\\.block\\b");
    /** Any property of Mnemos' {@code memory} bean a template names: only {@code block} exists. */
    static final Pattern MEMORY_PROPERTY = Pattern.compile("\\{\\s*(?:inject|cdi):memory\\.([\\w$]*)(\\([^)]*\\))?");

    /** What was found: errors fail the build, warnings are logged. */
    record Findings(List<String> errors, List<String> warnings) {
    }

    private final IndexView index;
    /** A prompt annotation's template text (its value or its resource), empty when it cannot be read. */
    private final Function<AnnotationInstance, Optional<String>> templates;
    private final Set<DotName> aiServiceTypes;
    private final List<String> errors = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    private SessionMemoryUsage(IndexView index, Function<AnnotationInstance, Optional<String>> templates) {
        this.index = index;
        this.templates = templates;
        this.aiServiceTypes = aiServiceTypes(index);
    }

    static Findings check(IndexView index, Function<AnnotationInstance, Optional<String>> templates) {
        SessionMemoryUsage usage = new SessionMemoryUsage(index, templates);
        Set<MethodInfo> methods = new LinkedHashSet<>();
        for (AnnotationInstance binding : index.getAnnotations(SESSION_MEMORY)) {
            usage.collect(binding.target(), methods);
        }
        methods.forEach(usage::checkMethod);
        return new Findings(List.copyOf(usage.errors), List.copyOf(usage.warnings));
    }

    private void collect(AnnotationTarget target, Set<MethodInfo> methods) {
        if (target.kind() == AnnotationTarget.Kind.METHOD) {
            MethodInfo method = target.asMethod();
            if (isAiServiceSide(method.declaringClass(), name(method))) {
                methods.add(method);
            }
        } else if (target.kind() == AnnotationTarget.Kind.CLASS) {
            ClassInfo type = target.asClass();
            if (!type.isAnnotation() && isAiServiceSide(type, type.name().toString())) {
                type.methods().stream().filter(m -> Modifier.isAbstract(m.flags())).forEach(methods::add);
            }
        }
    }

    private boolean isAiServiceSide(ClassInfo type, String named) {
        if (type.hasDeclaredAnnotation(INTERCEPTOR)) {
            return false; // the binding on Mnemos' own interceptor
        }
        if (aiServiceTypes.contains(type.name()) || isAgentType(type)) {
            return true;
        }
        errors.add(named + ": @SessionMemory is on " + type.name() + ", which is not a @RegisterAiService interface"
                + " nor an @Agent interface; the read-before-write runs only around the methods of an AI service or the"
                + " agents of a workflow");
        return false;
    }

    /** An agent interface of LangChain4j agentic: an interface with an {@code @Agent} method. */
    private static boolean isAgentType(ClassInfo type) {
        return type.isInterface() && type.methods().stream().anyMatch(m -> m.hasDeclaredAnnotation(AGENT));
    }

    private void checkMethod(MethodInfo method) {
        if (!method.hasDeclaredAnnotation(AGENT) && method.annotations(MEMORY_ID).stream()
                .noneMatch(a -> a.target().kind() == AnnotationTarget.Kind.METHOD_PARAMETER)) {
            errors.add(name(method) + ": a @SessionMemory method needs a @MemoryId parameter, the id of the session"
                    + " the step reads and writes (for example @MemoryId String sessionId)");
        }
        if (method.hasDeclaredAnnotation(AGENT) && STREAMS.contains(method.returnType().name().toString())) {
            errors.add(name(method) + ": a @SessionMemory @Agent method returns " + method.returnType()
                    + "; an agent of a workflow writes its step when it returns its answer, so it must return the"
                    + " answer itself (String, a record, …), not a stream");
        }
        List<Optional<String>> prompts = prompts(method);
        prompts.stream().flatMap(Optional::stream).forEach(prompt -> unknownPlaceholders(method, prompt));
        if (prompts.stream().allMatch(Optional::isPresent)
                && prompts.stream().noneMatch(p -> PLACEHOLDER.matcher(p.get()).find())) {
            warnings.add(name(method) + ": its prompt has no {inject:memory.block}, so the memory block Mnemos loads"
                    + " for every call never reaches the model; add {inject:memory.block} to its @SystemMessage");
        }
    }

    private void unknownPlaceholders(MethodInfo method, String prompt) {
        Matcher property = MEMORY_PROPERTY.matcher(prompt);
        while (property.find()) {
            if (!"block".equals(property.group(1))) {
                errors.add(name(method) + ": its prompt has " + property.group() + "}, which is not a Mnemos"
                        + " placeholder (Qute would fail every call on it); the memory block is {inject:memory.block},"
                        + " or {inject:memory.block(sessionId)} naming the @MemoryId parameter");
            }
        }
    }

    /** The method's prompt templates; an empty one could not be read (Quarkus LangChain4j reports that itself). */
    private List<Optional<String>> prompts(MethodInfo method) {
        List<Optional<String>> prompts = new ArrayList<>();
        AnnotationInstance system = Optional.ofNullable(method.declaredAnnotation(SYSTEM_MESSAGE))
                .orElse(method.declaringClass().declaredAnnotation(SYSTEM_MESSAGE));
        AnnotationInstance user = method.declaredAnnotation(USER_MESSAGE);
        for (AnnotationInstance prompt : new AnnotationInstance[] { system, user }) {
            if (prompt != null) {
                prompts.add(templates.apply(prompt));
            }
        }
        return prompts;
    }

    /** The {@code @RegisterAiService} interfaces and every interface they extend. */
    private static Set<DotName> aiServiceTypes(IndexView index) {
        Set<DotName> types = new HashSet<>();
        List<DotName> open = new ArrayList<>();
        for (AnnotationInstance service : index.getAnnotations(REGISTER_AI_SERVICE)) {
            if (service.target().kind() == AnnotationTarget.Kind.CLASS) {
                open.add(service.target().asClass().name());
            }
        }
        while (!open.isEmpty()) {
            DotName next = open.remove(open.size() - 1);
            ClassInfo type = index.getClassByName(next);
            if (types.add(next) && type != null) {
                open.addAll(type.interfaceNames());
            }
        }
        return types;
    }

    static String name(MethodInfo method) {
        return method.declaringClass().name() + "#" + method.name();
    }
}

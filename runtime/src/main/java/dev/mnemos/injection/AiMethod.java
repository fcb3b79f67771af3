package dev.mnemos.injection;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the interceptor needs to know about one annotated AI-service method. The interceptor sees
 * the generated implementation method, whose parameters carry no annotations, so the binding and
 * the {@code @MemoryId} / {@code @UserMessage} positions are read from the interface method.
 *
 * @param memoryIdIndex position of the {@code @MemoryId} parameter
 * @param userMessageIndex position of the user's message ({@code @UserMessage}, else the only other String), or -1
 */
public record AiMethod(Method method, SessionMemory binding, int memoryIdIndex, int userMessageIndex) {

    private static final Map<Method, AiMethod> CACHE = new ConcurrentHashMap<>();

    /** @throws IllegalStateException when the method has no {@code @SessionMemory} or no {@code @MemoryId} parameter */
    public static AiMethod of(Method invoked) {
        return CACHE.computeIfAbsent(invoked, AiMethod::resolve);
    }

    public String step() {
        return binding.step().isEmpty() ? method.getName() : binding.step();
    }

    /** The session id argument. @throws MissingMemoryIdException when it is null or blank */
    public String sessionId(Object[] args) {
        Object id = args[memoryIdIndex];
        if (id == null || id.toString().isBlank()) {
            throw new MissingMemoryIdException(method);
        }
        return id.toString();
    }

    /** The user's message argument as text, or null. */
    public String userMessage(Object[] args) {
        return userMessageIndex < 0 || args[userMessageIndex] == null ? null : args[userMessageIndex].toString();
    }

    private static AiMethod resolve(Method invoked) {
        Method declared = declared(invoked);
        SessionMemory binding = declared.getAnnotation(SessionMemory.class);
        if (binding == null) {
            binding = declared.getDeclaringClass().getAnnotation(SessionMemory.class);
        }
        if (isAsync(declared.getReturnType())) {
            throw new IllegalStateException("@SessionMemory method " + declared + " returns "
                    + declared.getReturnType().getSimpleName() + "; only blocking results (String, records, …) are supported");
        }
        int memoryId = indexOf(declared, MemoryId.class);
        if (binding == null || memoryId < 0) {
            throw new IllegalStateException(
                    "@SessionMemory method " + declared + " needs a @MemoryId String sessionId parameter");
        }
        return new AiMethod(declared, binding, memoryId, userMessageIndex(declared, memoryId));
    }

    /** Streaming and asynchronous results finish after the interceptor returns, so they cannot be written back. */
    private static boolean isAsync(Class<?> type) {
        return type.getName().startsWith("io.smallrye.mutiny.") || java.util.concurrent.Future.class.isAssignableFrom(type)
                || java.util.concurrent.CompletionStage.class.isAssignableFrom(type)
                || type.getName().equals("dev.langchain4j.service.TokenStream");
    }

    private static Method declared(Method invoked) {
        if (invoked.getDeclaringClass().isInterface()) {
            return invoked;
        }
        for (Class<?> type : invoked.getDeclaringClass().getInterfaces()) {
            try {
                return type.getMethod(invoked.getName(), invoked.getParameterTypes());
            } catch (NoSuchMethodException e) {
                // not this interface
            }
        }
        return invoked;
    }

    private static int userMessageIndex(Method method, int memoryId) {
        int annotated = indexOf(method, UserMessage.class);
        if (annotated >= 0) {
            return annotated;
        }
        int found = -1;
        for (int i = 0; i < method.getParameterCount(); i++) {
            if (i != memoryId && method.getParameterTypes()[i] == String.class) {
                if (found >= 0) {
                    return -1;
                }
                found = i;
            }
        }
        return found;
    }

    private static int indexOf(Method method, Class<? extends Annotation> annotation) {
        Annotation[][] all = method.getParameterAnnotations();
        for (int i = 0; i < all.length; i++) {
            for (Annotation a : all[i]) {
                if (a.annotationType() == annotation) {
                    return i;
                }
            }
        }
        return -1;
    }
}

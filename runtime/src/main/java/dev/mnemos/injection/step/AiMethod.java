package dev.mnemos.injection.step;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.mnemos.injection.MissingMemoryIdException;
import dev.mnemos.injection.SessionMemory;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;

/**
 * What the interceptor needs to know about one annotated AI-service method. The interceptor sees
 * the generated implementation method, whose parameters carry no annotations, so the binding and
 * the {@code @MemoryId} / {@code @UserMessage} positions are read from the interface method.
 *
 * @param memoryIdIndex position of the {@code @MemoryId} parameter
 * @param userMessageIndex position of the user's message ({@code @UserMessage}, else the only other String), or -1
 * @param result how the answer arrives
 */
public record AiMethod(Method method, SessionMemory binding, int memoryIdIndex, int userMessageIndex, Result result) {

    /** How a method's answer arrives, and so when its step is written. */
    public enum Result {
        /** A value returned by the call ({@code String}, a record, …): written before the call returns. */
        VALUE,
        /** A {@code Multi<String>} of tokens: loaded when subscribed, written once when the stream completes. */
        STREAM
    }

    private static final String MULTI = "io.smallrye.mutiny.Multi";
    private static final String TOKEN_STREAM = "dev.langchain4j.service.TokenStream";
    private static final Map<Method, AiMethod> CACHE = new ConcurrentHashMap<>();
    private static final Map<Method, AiMethod> AGENTS = new ConcurrentHashMap<>();

    /**
     * @throws IllegalStateException when the method has no {@code @SessionMemory} or no {@code @MemoryId} parameter, or
     *         returns an asynchronous result other than {@code Multi<String>}
     */
    public static AiMethod of(Method invoked) {
        return CACHE.computeIfAbsent(invoked, AiMethod::resolve);
    }

    /**
     * An {@code @Agent} method of an agentic workflow run as a {@link SessionMemory} step: its session is the
     * workflow's memory id, which the caller appends after the method's own arguments ({@code memoryIdIndex} is the
     * method's parameter count), so the method itself needs no {@code @MemoryId}.
     *
     * @throws IllegalStateException when neither the method nor its interface has {@code @SessionMemory}
     */
    public static AiMethod ofAgent(Method agent) {
        return AGENTS.computeIfAbsent(agent, m -> {
            SessionMemory binding = m.getAnnotation(SessionMemory.class);
            if (binding == null) {
                binding = m.getDeclaringClass().getAnnotation(SessionMemory.class);
            }
            if (binding == null) {
                throw new IllegalStateException("agent method " + m + " has no @SessionMemory");
            }
            int memoryId = m.getParameterCount();
            return new AiMethod(m, binding, memoryId, userMessageIndex(m, memoryId), result(m));
        });
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
        Result result = result(declared);
        int memoryId = indexOf(declared, MemoryId.class);
        if (binding == null || memoryId < 0) {
            throw new IllegalStateException(
                    "@SessionMemory method " + declared + " needs a @MemoryId String sessionId parameter");
        }
        return new AiMethod(declared, binding, memoryId, userMessageIndex(declared, memoryId), result);
    }

    /** @throws IllegalStateException for an asynchronous result whose answer this step cannot collect */
    private static Result result(Method method) {
        Class<?> type = method.getReturnType();
        if (type.getName().equals(MULTI) && isOfString(method.getGenericReturnType())) {
            return Result.STREAM;
        }
        if (unsupported(type)) {
            throw new IllegalStateException(unsupportedMessage(method.toString(), method.getGenericReturnType().getTypeName()));
        }
        return Result.VALUE;
    }

    /**
     * Whether a result of {@code type} (a class name) is one {@code @SessionMemory} refuses: asynchronous, and not
     * {@code Multi<String>}. {@code typeArgument} is its first type argument's name, or null.
     * <p>
     * A {@code TokenStream} is refused: Quarkus LangChain4j 1.10 hands its complete response to the chat memory on
     * the model client's event loop, where the session's chat memory in Redis cannot be read.
     */
    public static boolean unsupported(String type, String typeArgument) {
        return switch (type) {
            case MULTI -> !String.class.getName().equals(typeArgument);
            default -> type.equals(TOKEN_STREAM) || type.startsWith("io.smallrye.mutiny.")
                    || type.equals("java.util.concurrent.CompletionStage")
                    || type.equals("java.util.concurrent.CompletableFuture") || type.equals("java.util.concurrent.Future")
                    || type.startsWith("java.util.concurrent.Flow") || type.startsWith("org.reactivestreams.");
        };
    }

    /** Why a method {@link #unsupported(String, String) returning} {@code returnType} is refused. */
    public static String unsupportedMessage(String method, String returnType) {
        return "@SessionMemory method " + method + " returns " + returnType
                + ": a @SessionMemory method returns a value (String, a record, …) or streams a Multi<String>";
    }

    private static boolean unsupported(Class<?> type) {
        return unsupported(type.getName(), null) || Future.class.isAssignableFrom(type)
                || CompletionStage.class.isAssignableFrom(type);
    }

    private static boolean isOfString(Type type) {
        return type instanceof ParameterizedType p && p.getActualTypeArguments()[0] == String.class;
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

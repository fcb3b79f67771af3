package dev.mnemos.injection.agentic;

import dev.langchain4j.agentic.internal.InternalAgent;
import dev.langchain4j.agentic.planner.AgentInstance;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.stream.Collectors;

/**
 * The scope of each workflow built with {@code AgenticServices} builders under a key of its own. LangChain4j agentic
 * stores a root workflow's scope under the workflow's interface ({@code UntypedAgent} for every untyped one), so two
 * builder workflows of one interface on one session would read and overwrite one scope. An attached builder workflow
 * gets an id derived from what it is made of (its interface, name, output key and sub-agents: stable across restarts
 * while the code is the same), and its calls run with that id current, so that {@link SessionAgenticScopeStore} keeps
 * its scope under it.
 */
final class BuilderWorkflows {

    private BuilderWorkflows() {
    }

    /** {@code <interface>#<name>-<digest of name, output key and sub-agents>}. */
    static String scopeId(InternalAgent workflow) {
        String parts = workflow.name() + "|" + workflow.outputKey() + "|" + workflow.subagents().stream()
                .map(BuilderWorkflows::describe).collect(Collectors.joining(","));
        return workflow.type().getName() + "#" + workflow.name() + "-" + digest(parts);
    }

    /** {@code workflow}, each of whose calls runs with {@code scopeId} current in {@code scopes}. */
    @SuppressWarnings("unchecked")
    static <T> T calledUnder(T workflow, String scopeId, SessionAgenticScopeStore scopes) {
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return objectMethod(proxy, workflow, method, args);
            }
            try (SessionAgenticScopeStore.Current ignored = scopes.enter(scopeId)) {
                return method.invoke(workflow, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (T) Proxy.newProxyInstance(workflow.getClass().getClassLoader(), workflow.getClass().getInterfaces(),
                handler);
    }

    private static Object objectMethod(Object proxy, Object workflow, Method method, Object[] args) {
        return switch (method.getName()) {
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            default -> workflow.toString();
        };
    }

    private static String describe(AgentInstance agent) {
        return (agent.type() == null ? "" : agent.type().getName()) + ":" + agent.name() + ":" + agent.outputKey();
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}

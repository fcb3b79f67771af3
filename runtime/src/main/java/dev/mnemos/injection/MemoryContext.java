package dev.mnemos.injection;

import dev.mnemos.injection.block.OncePerPrompt;
import dev.mnemos.injection.step.StepThread;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * The memory block of the {@link SessionMemory} call running on this thread, for system-message
 * templates: {@code {inject:memory.block}}, or {@code {inject:memory.block(sessionId)}} to name the
 * session explicitly. Outside such a call (or for another session) the block is the empty string.
 * Nested calls each see their own block.
 */
@Named("memory")
@ApplicationScoped
public class MemoryContext {

    /**
     * The session and block of one running call.
     *
     * @param chatWindow the name of the call's own chat window in the session (its AI service's), used when
     *        {@link InjectionConfig#chatWindow()} is per service; null when unknown
     * @param chat the answers of the chat window sent with the block, once read
     */
    public record ActiveStep(String sessionId, String userId, long readVersion, MemoryBlock block, String chatWindow,
            OncePerPrompt.ChatTurns chat) {

        public ActiveStep(String sessionId, String userId, long readVersion, MemoryBlock block) {
            this(sessionId, userId, readVersion, block, null);
        }

        public ActiveStep(String sessionId, String userId, long readVersion, MemoryBlock block, String chatWindow) {
            this(sessionId, userId, readVersion, block, chatWindow, new OncePerPrompt.ChatTurns());
        }

        /** This step, keeping its chat history in {@code window}. */
        public ActiveStep inChatWindow(String window) {
            return new ActiveStep(sessionId, userId, readVersion, block, window, chat);
        }

        /** The block's text as this step's prompt carries it: each stored text once ({@link OncePerPrompt}). */
        String blockText() {
            return block == null ? "" : OncePerPrompt.text(block, chat.answers());
        }
    }

    /** The calls running on this thread, innermost first: a template's placeholder has no other way to its step. */
    private static final StepThread.Slot<Deque<ActiveStep>> ACTIVE = StepThread.slot(ArrayDeque::new);

    /** The block of the current call, or "" when no {@link SessionMemory} call is running here. */
    public String block() {
        return current().map(ActiveStep::blockText).orElse("");
    }

    /** The block of the current call when it is for {@code sessionId}, or "". */
    public String block(String sessionId) {
        return current().filter(step -> step.sessionId().equals(sessionId)).map(ActiveStep::blockText).orElse("");
    }

    public Optional<ActiveStep> current() {
        return Optional.ofNullable(ACTIVE.get().peek());
    }

    /** Makes {@code step} current until the returned scope is closed. */
    public Scope enter(ActiveStep step) {
        Deque<ActiveStep> stack = ACTIVE.get();
        stack.push(step);
        return () -> {
            stack.remove(step);
            if (stack.isEmpty()) {
                ACTIVE.remove();
            }
        };
    }

    /** Ends a call's visibility; never throws. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}

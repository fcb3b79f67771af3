package dev.mnemos.injection.block;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.mnemos.injection.MemoryBlock;
import dev.mnemos.injection.MemoryBlock.StoredLine;

import java.util.List;
import java.util.Objects;

/**
 * Keeps a stored text to one copy in a step's prompt. An earlier answer of the AI service sits in its
 * chat window and, as a collected value or a plan version, in the memory block: the chat window keeps
 * it (whole, in the turn where it was said) and the block's line becomes a reference to it. Quarkus
 * LangChain4j reads the chat window before it renders the system message, so the step knows the
 * window's answers ({@link ChatTurns}) when its template asks for the block.
 */
public final class OncePerPrompt {

    private OncePerPrompt() {
    }

    /** The block's text with each line that quotes one of {@code answers} made a reference. */
    public static String text(MemoryBlock block, List<String> answers) {
        String once = block.text();
        if (answers.isEmpty() || block.stored().isEmpty()) {
            return once;
        }
        for (StoredLine line : block.stored()) {
            if (answers.stream().anyMatch(answer -> carries(answer, line.value()))) {
                once = once.replace("\n" + line.line() + "\n", "\n" + line.reference() + "\n");
            }
        }
        return once;
    }

    /** Whether a chat answer is the stored text, or the text the store cut from it. */
    static boolean carries(String answer, String stored) {
        return answer.equals(stored)
                || stored.endsWith("…") && stored.length() > 1 && answer.startsWith(stored.substring(0, stored.length() - 1));
    }

    /** The answers of a step's chat window, as Quarkus LangChain4j read it for the step. */
    public static final class ChatTurns {

        private volatile List<String> answers = List.of();

        public void read(List<ChatMessage> messages) {
            answers = messages.stream().filter(AiMessage.class::isInstance).map(m -> ((AiMessage) m).text())
                    .filter(Objects::nonNull).toList();
        }

        public List<String> answers() {
            return answers;
        }
    }
}

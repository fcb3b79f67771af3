package dev.mnemos.injection.step;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** Slots of the one thread-local hold a value per thread and per slot, as a ThreadLocal each would. */
class StepThreadTest {

    private static final StepThread.Slot<String> NAME = StepThread.slot();
    private static final StepThread.Slot<Deque<String>> STACK = StepThread.slot(ArrayDeque::new);

    @Test
    void aSlotHoldsItsOwnValueOnItsOwnThread() throws Exception {
        NAME.set("alice");
        STACK.get().push("step");
        try {
            assertThat(NAME.get()).isEqualTo("alice");
            assertThat(STACK.get()).containsExactly("step");
            assertThat(CompletableFuture.supplyAsync(() -> NAME.get() + "/" + STACK.get().size()).get())
                    .as("another thread sees neither value").isEqualTo("null/0");
        } finally {
            NAME.remove();
            STACK.remove();
        }
        assertThat(NAME.get()).isNull();
        assertThat(STACK.get()).as("a slot with an initial value starts anew").isEmpty();
        STACK.remove();
    }

    @Test
    void emptyingOneSlotLeavesTheOthers() {
        NAME.set("bob");
        STACK.get().push("x");
        STACK.remove();
        assertThat(NAME.get()).isEqualTo("bob");
        NAME.set(null);
        assertThat(NAME.get()).isNull();
    }
}

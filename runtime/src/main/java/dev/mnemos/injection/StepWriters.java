package dev.mnemos.injection;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The {@link StepWriter} named by an annotation: its CDI bean when it has one, else a new instance. */
final class StepWriters {

    private static final Map<Class<? extends StepWriter>, StepWriter> PLAIN = new ConcurrentHashMap<>();

    private StepWriters() {
    }

    static StepWriter get(Class<? extends StepWriter> type) {
        if (Arc.container() != null) {
            InstanceHandle<? extends StepWriter> bean = Arc.container().instance(type);
            if (bean.isAvailable()) {
                return bean.get();
            }
        }
        return PLAIN.computeIfAbsent(type, StepWriters::create);
    }

    private static StepWriter create(Class<? extends StepWriter> type) {
        try {
            var constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("step writer " + type.getName()
                    + " is neither a CDI bean nor has a no-argument constructor", e);
        }
    }
}

package dev.mnemos.injection.step;

import dev.mnemos.injection.StepWriter;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.spi.Bean;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The {@link StepWriter} named by an annotation: its CDI bean when it has one, else one instance
 * made with its no-argument constructor. Each type is resolved once: a normal-scoped or singleton
 * bean and a plain instance are kept, a {@code @Dependent} bean is looked up anew for every step
 * (as before, so its instances are not shared).
 */
final class StepWriters {

    private final Map<Class<? extends StepWriter>, Supplier<StepWriter>> resolved = new ConcurrentHashMap<>();

    StepWriter get(Class<? extends StepWriter> type) {
        return resolved.computeIfAbsent(type, StepWriters::resolve).get();
    }

    private static Supplier<StepWriter> resolve(Class<? extends StepWriter> type) {
        ArcContainer container = Arc.container();
        if (container != null) {
            Set<Bean<?>> beans = container.beanManager().getBeans(type);
            if (!beans.isEmpty()) {
                if (container.beanManager().resolve(beans).getScope() == Dependent.class) {
                    return () -> container.instance(type).get();
                }
                StepWriter writer = container.instance(type).get();
                return () -> writer;
            }
        }
        StepWriter plain = create(type);
        return () -> plain;
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

package dev.mnemos.deployment.devui;

import io.quarkus.builder.BuildChainBuilder;
import io.quarkus.builder.item.BuildItem;
import io.quarkus.builder.item.MultiBuildItem;

import java.util.function.Consumer;

/**
 * Builds Mnemos' dev-mode tools into a test application, as dev mode does: a build step that produces
 * {@code MnemosDevToolsBuildItem}. The item is named, not referenced: the test class is loaded again inside the
 * application, where the deployment module's classes come from another class loader than Quarkus' build items.
 */
final class DevTools {

    static final String ITEM = "dev.mnemos.deployment.MnemosDevToolsBuildItem";

    private DevTools() {
    }

    static Consumer<BuildChainBuilder> builtIn() {
        return chain -> {
            Class<? extends MultiBuildItem> item = itemClass();
            chain.addBuildStep(step -> step.produce(newItem(item))).produces(item).build();
        };
    }

    private static Class<? extends MultiBuildItem> itemClass() {
        try {
            return Class.forName(ITEM, true, BuildItem.class.getClassLoader()).asSubclass(MultiBuildItem.class);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    private static MultiBuildItem newItem(Class<? extends MultiBuildItem> item) {
        try {
            return item.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}

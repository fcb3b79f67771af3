package dev.mnemos.deployment;

import io.quarkus.builder.item.MultiBuildItem;

/**
 * Present when Mnemos' dev-mode tools are built in: the inspector's user picker and the user switch behind it
 * ({@code dev.mnemos.devmode}). Produced in dev mode only ({@link InspectorProcessor#devTools}); a test of the
 * extension produces it through a build chain customizer to build those tools into a test application, since a
 * dev-mode application cannot be resolved everywhere the tests run.
 */
public final class MnemosDevToolsBuildItem extends MultiBuildItem {
}

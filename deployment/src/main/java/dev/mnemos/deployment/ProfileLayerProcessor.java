package dev.mnemos.deployment;

import io.quarkus.arc.deployment.BuildTimeConditionBuildItem;
import io.quarkus.bootstrap.classloading.QuarkusClassLoader;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.logging.Logger;

import java.util.Set;

/**
 * Session memory with Redis alone. The profile layer (user profile, promotion, archive, erasure, schema migration)
 * needs Hibernate ORM, Flyway and Quarkus Cache; {@code quarkus-mnemos} brings them, {@code quarkus-mnemos-session}
 * leaves them out. Without all three every class of that layer, and each use case, REST resource and exception mapper that
 * serves it, is left out of the build; the session layer then gets its stand-ins ({@code EmptyProfileSource},
 * {@code NoEndedSessions}, {@code SessionOnlyEnd}), which the profile layer's beans replace when it is built in.
 */
class ProfileLayerProcessor {

    private static final Logger LOG = Logger.getLogger(ProfileLayerProcessor.class);

    static final Set<String> PACKAGES = Set.of("dev.mnemos.profile", "dev.mnemos.promotion", "dev.mnemos.archive",
            "dev.mnemos.crypt",
            "dev.mnemos.erasure", "dev.mnemos.schema");

    /** The classes outside {@link #PACKAGES} that exist only to serve the profile layer. */
    static final Set<String> CLASSES = Set.of("dev.mnemos.app.PendingRequests", "dev.mnemos.app.PromotingEnd",
            "dev.mnemos.app.PromotionUndoService", "dev.mnemos.rest.PendingRequestOperations",
            "dev.mnemos.app.UserProfileService", "dev.mnemos.rest.EndedSessionResource",
            "dev.mnemos.rest.ProfileOperations", "dev.mnemos.rest.ProfileProblemMappers",
            "dev.mnemos.rest.ProfileResource", "dev.mnemos.rest.PromotionUndoResource",
            "dev.mnemos.rest.UndoProblemMappers", "dev.mnemos.rest.UserDataResource",
            "dev.mnemos.rest.EncryptionResource");

    /** Whether this application has what the profile layer runs on. */
    static boolean present(Capabilities capabilities) {
        return capabilities.isPresent(Capability.HIBERNATE_ORM) && capabilities.isPresent(Capability.CACHE)
                && QuarkusClassLoader.isClassPresentAtRuntime("org.flywaydb.core.Flyway");
    }

    @BuildStep
    void sessionOnly(Capabilities capabilities, CombinedIndexBuildItem index,
            BuildProducer<BuildTimeConditionBuildItem> conditions) {
        if (present(capabilities)) {
            return;
        }
        LOG.debug("Mnemos: no Hibernate ORM, Flyway or Quarkus Cache, session memory only (no profile, promotion or archive)");
        for (ClassInfo type : index.getIndex().getKnownClasses()) {
            if (inProfileLayer(type.name())) {
                conditions.produce(new BuildTimeConditionBuildItem(type, false));
            }
        }
    }

    static boolean inProfileLayer(DotName name) {
        return PACKAGES.contains(name.packagePrefix()) || CLASSES.contains(name.toString());
    }
}

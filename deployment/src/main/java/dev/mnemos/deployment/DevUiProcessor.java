package dev.mnemos.deployment;

import dev.mnemos.devmode.devui.MnemosDevUiService;
import io.quarkus.arc.deployment.BuildTimeConditionBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.deployment.IsDevelopment;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;
import io.quarkus.vertx.http.deployment.HttpRootPathBuildItem;
import org.jboss.jandex.ClassInfo;

import java.util.List;

/**
 * Mnemos' card in the Dev UI. Its <em>Sessions and traces</em> page ({@value #COMPONENT}, in this module's
 * {@code dev-ui/}) lists a picked user's live sessions and the newest step traces across them through a JSON-RPC
 * service that reads the stores directly ({@code dev.mnemos.devmode.devui}), so it works with the REST API off. With the
 * API on, a second page opens the session inspector. The service's classes exist only with Mnemos' dev-mode tools.
 */
class DevUiProcessor {

    static final String COMPONENT = "qwc-mnemos-sessions.js";
    static final String DEV_UI_PACKAGE = "dev.mnemos.devmode.devui";

    @BuildStep(onlyIf = IsDevelopment.class)
    void card(MnemosBuildConfig config, HttpRootPathBuildItem root, BuildProducer<CardPageBuildItem> cards) {
        CardPageBuildItem card = new CardPageBuildItem();
        card.addPage(Page.webComponentPageBuilder()
                .title("Sessions and traces")
                .icon("font-awesome-solid:list-check")
                .componentLink(COMPONENT));
        if (config.rest().enabled()) {
            card.addPage(Page.externalPageBuilder("Session inspector")
                    .icon("font-awesome-solid:clock-rotate-left")
                    .url(root.resolvePath(InspectorProcessor.PATH.substring(1) + "index.html"))
                    .isHtmlContent());
        }
        cards.produce(card);
    }

    @BuildStep(onlyIf = IsDevelopment.class)
    JsonRPCProvidersBuildItem jsonRpc() {
        return new JsonRPCProvidersBuildItem(MnemosDevUiService.class);
    }

    /** Kept in a build with the dev-mode tools even when nothing injects it: the Dev UI looks it up by name. */
    @BuildStep
    void keepService(List<MnemosDevToolsBuildItem> devTools, BuildProducer<UnremovableBeanBuildItem> unremovable) {
        if (!devTools.isEmpty()) {
            unremovable.produce(UnremovableBeanBuildItem.beanTypes(MnemosDevUiService.class));
        }
    }

    /** Without the dev-mode tools (production, tests, {@code quarkus build}) no class of the page's service is a bean. */
    @BuildStep
    void devUiOnly(List<MnemosDevToolsBuildItem> devTools, CombinedIndexBuildItem index,
            BuildProducer<BuildTimeConditionBuildItem> conditions) {
        if (!devTools.isEmpty()) {
            return;
        }
        for (ClassInfo type : index.getIndex().getKnownClasses()) {
            if (DEV_UI_PACKAGE.equals(type.name().packagePrefix())) {
                conditions.produce(new BuildTimeConditionBuildItem(type, false));
            }
        }
    }
}

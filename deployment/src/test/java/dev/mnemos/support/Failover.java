package dev.mnemos.support;

/**
 * The tag of the failover tests: they start engines of their own, kill them under load and count what was
 * acknowledged, replicated and recovered, so they run one at a time after the other tests (which run in two JVMs
 * at once), on a machine no other test class is loading (deployment's pom.xml, execution {@code failover-tests}).
 */
public final class Failover {

    public static final String TAG = "failover";

    private Failover() {
    }
}

package dev.mnemos.support;

/**
 * The tag of the failover tests: they start engines of their own, kill them under load and count what was
 * acknowledged, replicated and recovered, so they run after every other test class, on a machine no other test is
 * loading (deployment's pom.xml, execution {@code failover-tests}).
 */
public final class Failover {

    public static final String TAG = "failover";

    private Failover() {
    }
}

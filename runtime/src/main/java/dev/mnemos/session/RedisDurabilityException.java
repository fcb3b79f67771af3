package dev.mnemos.session;

/**
 * A session write refused before anything was sent: Redis runs an evicting {@code maxmemory-policy}, so an
 * acknowledged write could vanish ({@link RedisDurability#refuseWritesIfEvicting()}). Answered 503, nothing
 * written, until the policy is {@code noeviction} again or {@code quarkus.mnemos.redis.accept-eviction=true}.
 */
public class RedisDurabilityException extends SessionStoreUnavailableException {

    private final String policy;

    public RedisDurabilityException(String policy) {
        super("session memory refuses writes: Redis' maxmemory-policy is " + policy
                + ", under which it may evict live sessions; nothing was written", null, false);
        this.policy = policy;
    }

    public String policy() {
        return policy;
    }
}

package dev.mnemos.devmode;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/** A dev-mode request to act as {@code userId}, from the {@value DevUserMechanism#HEADER} header. */
public class DevUserRequest extends BaseAuthenticationRequest {

    private final String userId;

    public DevUserRequest(String userId) {
        this.userId = userId;
    }

    public String userId() {
        return userId;
    }
}

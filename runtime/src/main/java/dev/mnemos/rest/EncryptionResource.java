package dev.mnemos.rest;

import dev.mnemos.crypt.DataKeys;
import dev.mnemos.crypt.KeyRotation;
import dev.mnemos.crypt.StoreSealing;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * The operator's side of encryption at rest (docs/operations.md "Encryption at rest"): where the store stands, a
 * rotation's re-wrap of the data keys, and the pass that seals what Postgres held from before encryption was on. For a
 * token with the {@code operator} role only; none of them reads or answers a user's memory. Each runs online, in
 * small transactions, and may be called again: a call cut short (a timeout, a restart) leaves what it did done.
 */
@Path("/v1/encryption")
@RolesAllowed(Caller.OPERATOR_ROLE)
@Produces(MediaType.APPLICATION_JSON)
@APIResponse(responseCode = "401", description = ApiDocs.UNAUTHORIZED)
@APIResponse(responseCode = "403", description = "The token has no `operator` role.")
@APIResponse(responseCode = "503", description = ApiDocs.POSTGRES_DOWN, content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
public class EncryptionResource {

    /** Where encryption at rest stands. */
    public record EncryptionStatus(boolean encrypted, String keyId, long dataKeysToRewrap, long plainValues) {
    }

    /** What a re-wrap did, and what is left to re-wrap (another instance may still wrap with the old key). */
    public record RewrapResult(long rewrapped, long remaining) {
    }

    /** What a sealing pass did, and what is left plain (written meanwhile by an instance without a key). */
    public record SealResult(long sealed, long remaining) {
    }

    private final DataKeys keys;
    private final KeyRotation rotation;
    private final StoreSealing sealing;

    public EncryptionResource(DataKeys keys, KeyRotation rotation, StoreSealing sealing) {
        this.keys = keys;
        this.rotation = rotation;
        this.sealing = sealing;
    }

    @Operation(summary = "Encryption at rest", description = "Whether memory is sealed, the name of the key-encryption key new data keys are wrapped by, how many data keys another key still wraps (a rotation not finished), and how many plain values Postgres still holds (written before encryption was on).")
    @APIResponse(responseCode = "200", description = "Where it stands.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = EncryptionStatus.class)))
    @GET
    public EncryptionStatus status() {
        boolean on = keys.enabled();
        return new EncryptionStatus(on, on ? keys.currentKeyId() : null, rotation.remaining(), sealing.remaining());
    }

    @Operation(summary = "Re-wrap the data keys", description = "After a rotation (every instance has the new `quarkus.mnemos.encryption.key` and the old one among `previous-keys`): re-wraps every data key another key-encryption key wraps. Reads no memory text; the data keys stay the same, so every sealed value keeps opening. Online, 100 keys a transaction. Once `remaining` is 0 on a call made after every instance restarted, the old key can go.")
    @APIResponse(responseCode = "200", description = "How many were re-wrapped, and how many another key still wraps.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = RewrapResult.class)))
    @APIResponse(responseCode = "409", description = "Encryption at rest is off: there is no key to re-wrap with; nothing was done.", content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @POST
    @Path("/rewrap")
    public RewrapResult rewrap() {
        long done = rotation.rewrap();
        return new RewrapResult(done, rotation.remaining());
    }

    @Operation(summary = "Seal the store", description = "Seals every plain value Postgres holds (facts, events, candidates, archived sessions, tombstones, held requests written before encryption was on) with its user's data key, online, 100 rows a transaction, each locked while sealed. Redis needs no pass: a session's plain values are sealed as they are written again and leave with the session.")
    @APIResponse(responseCode = "200", description = "How many values were sealed, and how many are still plain.", content = @Content(mediaType = "application/json", schema = @Schema(implementation = SealResult.class)))
    @APIResponse(responseCode = "409", description = "Encryption at rest is off: there is no key to seal with; nothing was done.", content = @Content(mediaType = ApiDocs.PROBLEM, schema = @Schema(implementation = Problem.class)))
    @POST
    @Path("/seal")
    public SealResult seal() {
        long done = sealing.sealPostgres();
        return new SealResult(done, sealing.remaining());
    }
}

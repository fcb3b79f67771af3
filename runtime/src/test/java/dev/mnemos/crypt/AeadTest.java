package dev.mnemos.crypt;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import javax.crypto.AEADBadTagException;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sealing with kept ciphers: values of many users' keys, sealed and opened by threads at once, each open with their own
 * key and place only; and the associated data of a place is the bytes earlier releases sealed with.
 */
class AeadTest {

    @Test
    void keptCiphersSealAndOpenEachValueWithItsOwnKeyFromManyThreads() throws Exception {
        List<SecretKey> keys = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            keys.add(new SecretKeySpec(Aead.randomKey(), "AES"));
        }
        ExecutorService threads = Executors.newFixedThreadPool(16);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                int thread = t;
                done.add(threads.submit(() -> {
                    int opened = 0;
                    for (int i = 0; i < 2_000; i++) {
                        SecretKey key = keys.get((thread + i) % keys.size());
                        SecretKey other = keys.get((thread + i + 1) % keys.size());
                        byte[] place = Place.of("user-" + thread, "redis", "goal").associatedData();
                        byte[] plain = ("value " + thread + "/" + i).getBytes(StandardCharsets.UTF_8);
                        byte[] sealed = Aead.seal(key, plain, place);
                        assertThat(Aead.open(key, sealed, place)).isEqualTo(plain);
                        assertThatThrownBy(() -> Aead.open(other, sealed, place)).isInstanceOf(AEADBadTagException.class);
                        opened++;
                    }
                    return opened;
                }));
            }
            for (Future<Integer> thread : done) {
                assertThat(thread.get()).isEqualTo(2_000);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aPlacesAssociatedDataIsItsPartsAsDataOutputWritesThem() throws IOException {
        for (Place place : List.of(Place.of("alice", "redis", "goal"), new Place("bob-1", "archived_session", "state", "s-9"),
                Place.of("j\u00fcrgen", "profile_fact", "value"), Place.of("nul\u0000user", "redis", "c"),
                Place.of("\ud83d\ude00", "redis", "event"), Place.of("", "redis", "k"))) {
            assertThat(place.associatedData()).as(place.userId()).isEqualTo(written(place));
        }
    }

    @Test
    void aValueOpensOnlyAtThePlaceItWasSealedFor() throws Exception {
        SecretKey key = new SecretKeySpec(Aead.randomKey(), "AES");
        byte[] sealed = Aead.seal(key, "x".getBytes(StandardCharsets.UTF_8),
                Place.of("alice", "redis", "goal").associatedData());
        for (Place elsewhere : List.of(Place.of("alicf", "redis", "goal"), Place.of("alice", "redis", "context"),
                new Place("alice", "redis", "goal", "r"))) {
            assertThatThrownBy(() -> Aead.open(key, sealed, elsewhere.associatedData()))
                    .isInstanceOf(AEADBadTagException.class);
        }
    }

    private static byte[] written(Place place) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF("mnemos v1");
            out.writeUTF(place.table());
            out.writeUTF(place.column());
            out.writeUTF(place.userId());
            out.writeUTF(place.row() == null ? "" : place.row());
        }
        return bytes.toByteArray();
    }
}

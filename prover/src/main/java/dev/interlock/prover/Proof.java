package dev.interlock.prover;

import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G2;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A Groth16 proof (A ∈ G1, B ∈ G2, C ∈ G1). Encoding: compressed A (48 bytes) ‖ B (96) ‖ C (48) = {@value #BYTES}
 * bytes. Equality is point equality.
 */
public record Proof(G1 a, G2 b, G1 c) {
  /** Size of the serialized proof. */
  public static final int BYTES = 2 * G1.COMPRESSED_BYTES + G2.COMPRESSED_BYTES;

  /** Rejects nulls. */
  public Proof {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    Objects.requireNonNull(c, "c");
  }

  /** The 192-byte encoding. */
  public byte[] serialize() {
    byte[] out = new byte[BYTES];
    System.arraycopy(a.serialize(), 0, out, 0, G1.COMPRESSED_BYTES);
    System.arraycopy(b.serialize(), 0, out, G1.COMPRESSED_BYTES, G2.COMPRESSED_BYTES);
    System.arraycopy(c.serialize(), 0, out, G1.COMPRESSED_BYTES + G2.COMPRESSED_BYTES, G1.COMPRESSED_BYTES);
    return out;
  }

  /** Parses a 192-byte encoding, validating each point (IllegalArgumentException saying which one is bad). */
  public static Proof deserialize(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    if (bytes.length != BYTES) {
      throw new IllegalArgumentException("proof: expected " + BYTES + " bytes, got " + bytes.length);
    }
    int b0 = G1.COMPRESSED_BYTES;
    int c0 = b0 + G2.COMPRESSED_BYTES;
    return new Proof(point("A", () -> G1.deserialize(Arrays.copyOfRange(bytes, 0, b0))),
        point("B", () -> G2.deserialize(Arrays.copyOfRange(bytes, b0, c0))),
        point("C", () -> G1.deserialize(Arrays.copyOfRange(bytes, c0, BYTES))));
  }

  private static <T> T point(String name, Supplier<T> decode) {
    try {
      return decode.get();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("proof: bad " + name + ": " + e.getMessage(), e);
    }
  }
}

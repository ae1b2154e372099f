package dev.interlock.prover.curve;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import supranational.blst.P2;
import supranational.blst.P2_Affine;

/**
 * An immutable element of G2, the order-r subgroup of the BLS12-381 twist over F_p^2 (compressed
 * size 96 bytes). Always in the subgroup (see the package conventions); equality is by canonical
 * encoding.
 */
public final class G2 {
  /** Bytes in the compressed encoding. */
  public static final int COMPRESSED_BYTES = 96;

  private static final String NAME = "G2";
  private static final G2 GENERATOR = new G2(P2.generator());
  private static final G2 IDENTITY = new G2(new P2());

  /** Jacobian point, owned by this object and never mutated after construction. */
  private final P2 point;

  /** Lazily computed affine form; shared with bases and pairings, never mutated. */
  private volatile P2_Affine affine;

  /** Lazily computed compressed encoding; never handed out (serialize() copies). */
  private volatile byte[] compressed;

  private G2(P2 owned) {
    this.point = owned;
  }

  private G2(P2_Affine owned, byte[] compressed) {
    this.point = owned.to_jacobian();
    this.affine = owned;
    this.compressed = compressed;
  }

  /** The standard generator of G2. */
  public static G2 generator() {
    return GENERATOR;
  }

  /** The identity (point at infinity). */
  public static G2 identity() {
    return IDENTITY;
  }

  /** this + other. */
  public G2 add(G2 other) {
    return new G2(point.dup().add(other.point));
  }

  /** -this. */
  public G2 neg() {
    return new G2(point.dup().neg());
  }

  /** this - other. */
  public G2 sub(G2 other) {
    return new G2(other.point.dup().neg().add(point));
  }

  /** 2 * this. */
  public G2 dbl() {
    return new G2(point.dup().dbl());
  }

  /** k * this, for any integer k (reduced mod r, so negative k is allowed). */
  public G2 mul(BigInteger k) {
    BigInteger m = k.mod(Scalars.R);
    return m.signum() == 0 ? IDENTITY : new G2(point.dup().mult(m));
  }

  /**
   * s * this, for a canonical 32-byte little-endian scalar (IllegalArgumentException if s &gt;= r).
   */
  public G2 mul(byte[] le32) {
    BigInteger m = Scalars.canonicalFromBytes(le32);
    return m.signum() == 0 ? IDENTITY : new G2(point.dup().mult(m));
  }

  /** Whether this is the identity. */
  public boolean isIdentity() {
    return point.is_inf();
  }

  /** The canonical compressed encoding (96 bytes; identity is 0xc0 then zeros). */
  public byte[] serialize() {
    return compressedBytes().clone();
  }

  /**
   * Parses a canonical compressed encoding, checking that it is on the curve and in the subgroup;
   * throws IllegalArgumentException saying what is wrong otherwise.
   */
  public static G2 deserialize(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    if (bytes.length != COMPRESSED_BYTES) {
      throw new IllegalArgumentException(
          NAME + " point: expected " + COMPRESSED_BYTES + " compressed bytes, got " + bytes.length);
    }
    int flags = bytes[0] & 0xff;
    if ((flags & 0x80) == 0) {
      throw new IllegalArgumentException(
          NAME + " point: compression flag (0x80) not set; only compressed encodings are accepted");
    }
    if ((flags & 0x40) != 0) {
      boolean rest = false;
      for (int i = 1; i < bytes.length; i++) {
        rest |= bytes[i] != 0;
      }
      if (flags != 0xc0 || rest) {
        throw new IllegalArgumentException(
            NAME
                + " point: non-canonical identity (infinity flag set but other bits are not zero)");
      }
      return IDENTITY;
    }
    P2_Affine a;
    try {
      a = new P2_Affine(bytes);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(Points.describeDecodeFailure(NAME, e), e);
    }
    if (!a.on_curve()) {
      throw new IllegalArgumentException(NAME + " point: not on the curve");
    }
    if (!a.in_group()) {
      throw new IllegalArgumentException(
          NAME + " point: on the curve but not in the prime-order subgroup");
    }
    byte[] copy = bytes.clone();
    if (!Arrays.equals(a.compress(), copy)) {
      throw new IllegalArgumentException(NAME + " point: non-canonical encoding");
    }
    return new G2(a, copy);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof G2 && Arrays.equals(compressedBytes(), ((G2) o).compressedBytes());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(compressedBytes());
  }

  /** Short form: {@code G2(identity)} or {@code G2(<first 8 bytes of the encoding in hex>…)}. */
  @Override
  public String toString() {
    if (isIdentity()) {
      return NAME + "(identity)";
    }
    return NAME + "(" + HexFormat.of().formatHex(compressedBytes(), 0, 8) + "…)";
  }

  // ---- package-private access for bases, MSM and pairings (callers must not mutate) ----

  /** Takes ownership of a freshly computed point (the caller must drop its reference). */
  static G2 wrap(P2 owned) {
    return new G2(owned);
  }

  /** The jacobian point; read-only. */
  P2 jacobian() {
    return point;
  }

  /** The affine point (computed once); read-only. */
  P2_Affine affine() {
    P2_Affine a = affine;
    if (a == null) {
      a = point.to_affine();
      affine = a;
    }
    return a;
  }

  private byte[] compressedBytes() {
    byte[] c = compressed;
    if (c == null) {
      c = affine().compress();
      compressed = c;
    }
    return c;
  }
}

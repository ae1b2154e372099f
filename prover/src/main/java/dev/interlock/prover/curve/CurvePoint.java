package dev.interlock.prover.curve;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * An immutable element of G1 or G2: the group law, scalar multiplication, (de)serialization and equality, written
 * once over blst's point operations of either group (the group's operations, {@code ops()}, are what differs).
 * Always in the order-r subgroup (see the package conventions); equality is by canonical encoding.
 *
 * <p>Why this shape: each subclass's operations are a static final record of jblst method references, so a call
 * site that sees one group folds them to direct calls and one that sees both is bimorphic (inlined, no megamorphic
 * dispatch); the only allocations are those of the old G1 and G2 (the result, and jblst's copy of the point).
 *
 * @param <P> the group element type itself ({@link G1} or {@link G2})
 * @param <J> blst's Jacobian point type
 * @param <A> blst's affine point type
 */
public abstract sealed class CurvePoint<P extends CurvePoint<P, J, A>, J, A> permits G1, G2 {
  /** Jacobian point, owned by this object and never mutated after construction. */
  private final J point;

  /** Lazily computed affine form; shared with bases and pairings, never mutated. */
  private volatile A affine;

  /** Lazily computed compressed encoding; never handed out (serialize() copies). */
  private volatile byte[] compressed;

  CurvePoint(J owned) {
    this.point = owned;
  }

  /** The group's operations (a static final of the subclass). */
  abstract PointOps<P, J, A> ops();

  /** this + other. */
  public final P add(P other) {
    PointOps<P, J, A> ops = ops();
    J r = ops.copy().apply(point);
    ops.add().accept(r, other.jacobian());
    return ops.wrap().apply(r);
  }

  /** -this. */
  public final P neg() {
    PointOps<P, J, A> ops = ops();
    J r = ops.copy().apply(point);
    ops.neg().accept(r);
    return ops.wrap().apply(r);
  }

  /** this - other. */
  public final P sub(P other) {
    PointOps<P, J, A> ops = ops();
    J r = ops.copy().apply(other.jacobian());
    ops.neg().accept(r);
    ops.add().accept(r, point);
    return ops.wrap().apply(r);
  }

  /** 2 * this. */
  public final P dbl() {
    PointOps<P, J, A> ops = ops();
    J r = ops.copy().apply(point);
    ops.dbl().accept(r);
    return ops.wrap().apply(r);
  }

  /** k * this, for any integer k (reduced mod r, so negative k is allowed). */
  public final P mul(BigInteger k) {
    return mulCanonical(k.mod(Scalars.R));
  }

  /**
   * s * this, for a canonical 32-byte little-endian scalar (IllegalArgumentException if s &gt;= r).
   */
  public final P mul(byte[] le32) {
    return mulCanonical(Scalars.canonicalFromBytes(le32));
  }

  private P mulCanonical(BigInteger m) {
    PointOps<P, J, A> ops = ops();
    if (m.signum() == 0) {
      return ops.identityElement().get();
    }
    J r = ops.copy().apply(point);
    ops.mult().accept(r, m);
    return ops.wrap().apply(r);
  }

  /** Whether this is the identity. */
  public final boolean isIdentity() {
    return ops().isInf().test(point);
  }

  /** The canonical compressed encoding (48 bytes for G1, 96 for G2; identity is 0xc0 then zeros). */
  public final byte[] serialize() {
    return compressedBytes().clone();
  }

  /**
   * Parses a canonical compressed encoding of a point of the group, checking that it is on the curve and in the
   * subgroup; throws IllegalArgumentException saying what is wrong otherwise.
   */
  static <P extends CurvePoint<P, J, A>, J, A> P deserialize(PointOps<P, J, A> ops, byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    String name = ops.name();
    int size = ops.compressedBytes();
    if (bytes.length != size) {
      throw new IllegalArgumentException(
          name + " point: expected " + size + " compressed bytes, got " + bytes.length);
    }
    int flags = bytes[0] & 0xff;
    if ((flags & 0x80) == 0) {
      throw new IllegalArgumentException(
          name + " point: compression flag (0x80) not set; only compressed encodings are accepted");
    }
    if ((flags & 0x40) != 0) {
      boolean rest = false;
      for (int i = 1; i < bytes.length; i++) {
        rest |= bytes[i] != 0;
      }
      if (flags != 0xc0 || rest) {
        throw new IllegalArgumentException(
            name + " point: non-canonical identity (infinity flag set but other bits are not zero)");
      }
      return ops.identityElement().get();
    }
    A a;
    try {
      a = ops.decode().apply(bytes);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(describeDecodeFailure(name, e), e);
    }
    if (!ops.onCurve().test(a)) {
      throw new IllegalArgumentException(name + " point: not on the curve");
    }
    if (!ops.inGroup().test(a)) {
      throw new IllegalArgumentException(name + " point: on the curve but not in the prime-order subgroup");
    }
    byte[] copy = bytes.clone();
    if (!Arrays.equals(ops.compress().apply(a), copy)) {
      throw new IllegalArgumentException(name + " point: non-canonical encoding");
    }
    P p = ops.wrap().apply(ops.toJacobian().apply(a));
    CurvePoint<P, J, A> fresh = p; // not yet shared: its caches can be filled in place
    fresh.affine = a;
    fresh.compressed = copy;
    return p;
  }

  /** A clear message for blst's refusal to decode a compressed point. */
  private static String describeDecodeFailure(String group, RuntimeException e) {
    String m = String.valueOf(e.getMessage());
    if (m.contains("not on curve")) {
      return group + " point: not on the curve (x has no matching y): " + m;
    }
    if (m.contains("bad point encoding")) {
      return group + " point: bad encoding (x is not a field element below p): " + m;
    }
    return group + " point: cannot decode: " + m;
  }

  @Override
  public final boolean equals(Object o) {
    return o instanceof CurvePoint<?, ?, ?> q
        && q.getClass() == getClass()
        && Arrays.equals(compressedBytes(), q.compressedBytes());
  }

  @Override
  public final int hashCode() {
    return Arrays.hashCode(compressedBytes());
  }

  /** Short form: {@code G1(identity)} or {@code G1(<first 8 bytes of the encoding in hex>…)} (likewise G2). */
  @Override
  public final String toString() {
    String name = ops().name();
    if (isIdentity()) {
      return name + "(identity)";
    }
    return name + "(" + HexFormat.of().formatHex(compressedBytes(), 0, 8) + "…)";
  }

  // ---- package-private access for bases, MSM and pairings (callers must not mutate) ----

  /** The jacobian point; read-only. */
  final J jacobian() {
    return point;
  }

  /** The affine point (computed once); read-only. */
  final A affine() {
    A a = affine;
    if (a == null) {
      a = ops().toAffine().apply(point);
      affine = a;
    }
    return a;
  }

  private byte[] compressedBytes() {
    byte[] c = compressed;
    if (c == null) {
      c = ops().compress().apply(affine());
      compressed = c;
    }
    return c;
  }
}

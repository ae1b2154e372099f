package dev.interlock.prover.curve;

import java.nio.LongBuffer;
import java.util.Objects;
import supranational.blst.P1;
import supranational.blst.P1_Affine;

/**
 * G1 points as raw limbs in blst's own memory layout (Montgomery F_p, R = 2^384, six little-endian 64-bit limbs per
 * coordinate), for copying points to and from a GPU byte for byte, without conversions.
 *
 * <p>Affine points take {@value #AFFINE_LONGS} longs (x, y; the identity is all zeros), Jacobian ones {@value
 * #JACOBIAN_LONGS} (x, y, z with x/z², y/z³; the identity has z = 0). Points read back are checked to lie on the
 * curve, so a wrong kernel shows up as a clear error, not as a proof that fails to verify much later.
 */
public final class G1Limbs {
  /** Longs per affine point. */
  public static final int AFFINE_LONGS = BlstStructs.P1_AFFINE_LONGS;
  /** Longs per Jacobian point. */
  public static final int JACOBIAN_LONGS = BlstStructs.P1_LONGS;

  private G1Limbs() {}

  /** Writes bases [from, from + count) into dst from index at, {@value #AFFINE_LONGS} longs each. */
  public static void affine(G1Bases bases, int from, int count, long[] dst, int at) {
    Objects.checkFromIndexSize(at, count * AFFINE_LONGS, dst.length);
    affine(bases, from, count, LongBuffer.wrap(dst, at, count * AFFINE_LONGS));
  }

  /**
   * Puts bases [from, from + count) into dst from its position, {@value #AFFINE_LONGS} longs each (a direct buffer
   * such as pinned host memory takes them without an intermediate array).
   */
  public static void affine(G1Bases bases, int from, int count, LongBuffer dst) {
    Objects.checkFromIndexSize(from, count, bases.size());
    if (dst.remaining() < count * AFFINE_LONGS) {
      throw new IndexOutOfBoundsException(count + " points need " + count * AFFINE_LONGS + " longs, the buffer has "
          + dst.remaining());
    }
    P1_Affine[] points = bases.affine();
    for (int i = 0; i < count; i++) {
      dst.put(BlstStructs.limbs(points[from + i]), 0, AFFINE_LONGS);
    }
  }

  /** The affine limbs of one point. */
  public static long[] affine(G1 point) {
    return BlstStructs.limbs(point.affine()).clone();
  }

  /** The point whose Jacobian limbs start at src[at]; IllegalArgumentException if it is not on the curve. */
  public static G1 fromJacobian(long[] src, int at) {
    Objects.checkFromIndexSize(at, JACOBIAN_LONGS, src.length);
    long[] limbs = new long[JACOBIAN_LONGS];
    System.arraycopy(src, at, limbs, 0, JACOBIAN_LONGS);
    P1 p = BlstStructs.p1(limbs);
    if (!p.is_inf() && !p.on_curve()) {
      throw new IllegalArgumentException("G1 Jacobian limbs at " + at + " are not a point on the curve");
    }
    return G1.wrap(p);
  }

  /** The point whose affine limbs start at src[at]; IllegalArgumentException if it is not on the curve. */
  public static G1 fromAffine(long[] src, int at) {
    Objects.checkFromIndexSize(at, AFFINE_LONGS, src.length);
    long[] limbs = new long[AFFINE_LONGS];
    System.arraycopy(src, at, limbs, 0, AFFINE_LONGS);
    P1_Affine a = BlstStructs.p1Affine(limbs);
    if (!a.is_inf() && !a.on_curve()) {
      throw new IllegalArgumentException("G1 affine limbs at " + at + " are not a point on the curve");
    }
    return G1.wrap(a.to_jacobian());
  }
}

package dev.interlock.prover.curve;

import java.nio.LongBuffer;
import java.util.Objects;
import supranational.blst.P2;

/**
 * G2 points as raw limbs in blst's own memory layout (Montgomery F_p2 coordinates, each c0 then c1, six little-endian
 * 64-bit limbs per F_p), for copying points to and from a GPU byte for byte, as {@link G1Limbs} does for G1.
 *
 * <p>Affine points take {@value #AFFINE_LONGS} longs (x, y; the identity is all zeros), Jacobian ones {@value
 * #JACOBIAN_LONGS} (x, y, z; the identity has z = 0). Points read back are checked to lie on the curve and in the
 * subgroup, so a wrong kernel shows up as a clear error.
 */
public final class G2Limbs {
  /** Longs per affine point. */
  public static final int AFFINE_LONGS = BlstStructs.P2_AFFINE_LONGS;
  /** Longs per Jacobian point. */
  public static final int JACOBIAN_LONGS = BlstStructs.P2_LONGS;

  private G2Limbs() {}

  /** Writes bases [from, from + count) into dst from index at, {@value #AFFINE_LONGS} longs each. */
  public static void affine(G2Bases bases, int from, int count, long[] dst, int at) {
    Objects.checkFromIndexSize(at, count * AFFINE_LONGS, dst.length);
    affine(bases, from, count, LongBuffer.wrap(dst, at, count * AFFINE_LONGS));
  }

  /** Puts bases [from, from + count) into dst from its position, {@value #AFFINE_LONGS} longs each. */
  public static void affine(G2Bases bases, int from, int count, LongBuffer dst) {
    Objects.checkFromIndexSize(from, count, bases.size());
    if (dst.remaining() < count * AFFINE_LONGS) {
      throw new IndexOutOfBoundsException(count + " points need " + count * AFFINE_LONGS + " longs, the buffer has "
          + dst.remaining());
    }
    var points = bases.affine();
    for (int i = 0; i < count; i++) {
      dst.put(BlstStructs.limbs(points[from + i]), 0, AFFINE_LONGS);
    }
  }

  /** The point whose Jacobian limbs start at src[at]; IllegalArgumentException if it is not in G2. */
  public static G2 fromJacobian(long[] src, int at) {
    Objects.checkFromIndexSize(at, JACOBIAN_LONGS, src.length);
    long[] limbs = new long[JACOBIAN_LONGS];
    System.arraycopy(src, at, limbs, 0, JACOBIAN_LONGS);
    P2 p = BlstStructs.p2(limbs);
    if (!p.is_inf() && (!p.on_curve() || !p.in_group())) {
      throw new IllegalArgumentException("G2 Jacobian limbs at " + at + " are not a point of G2");
    }
    return G2.wrap(p);
  }
}

package dev.interlock.prover.curve;

import supranational.blst.P1;
import supranational.blst.P1_Affine;
import supranational.blst.P2;
import supranational.blst.P2_Affine;

/**
 * The C structs behind jblst's point objects, read and wrapped without copies or conversions.
 *
 * <p>jblst keeps each point's blst struct in a {@code long[]} (Montgomery F_p limbs, little-endian, 6 per
 * coordinate; F_p2 coordinates as two such) and hands it out only to subclasses, hence the private subclasses
 * here. The arrays returned are the points' own: callers read them and never write.
 */
final class BlstStructs {
  /** Longs in a blst_p1_affine (x, y). */
  static final int P1_AFFINE_LONGS = 12;
  /** Longs in a blst_p1 (Jacobian x, y, z). */
  static final int P1_LONGS = 18;
  /** Longs in a blst_p2_affine (x, y in F_p2). */
  static final int P2_AFFINE_LONGS = 24;
  /** Longs in a blst_p2 (Jacobian x, y, z in F_p2). */
  static final int P2_LONGS = 36;

  private BlstStructs() {}

  static long[] limbs(P1_Affine a) {
    return RawP1Affine.of(a);
  }

  static long[] limbs(P2_Affine a) {
    return RawP2Affine.of(a);
  }

  /** A P1 over the given struct (the array becomes the point's). */
  static P1 p1(long[] limbs) {
    return new RawP1(limbs);
  }

  /** A P1_Affine over the given struct (the array becomes the point's). */
  static P1_Affine p1Affine(long[] limbs) {
    return new RawP1Affine(limbs);
  }

  /** A P2 over the given struct (the array becomes the point's). */
  static P2 p2(long[] limbs) {
    return new RawP2(limbs);
  }

  private static final class RawP1 extends P1 {
    RawP1(long[] limbs) {
      super(limbs);
    }
  }

  private static final class RawP1Affine extends P1_Affine {
    RawP1Affine(long[] limbs) {
      super(limbs);
    }

    static long[] of(P1_Affine a) {
      return getCPtr(a);
    }
  }

  private static final class RawP2 extends P2 {
    RawP2(long[] limbs) {
      super(limbs);
    }
  }

  private static final class RawP2Affine extends P2_Affine {
    RawP2Affine(long[] limbs) {
      super(limbs);
    }

    static long[] of(P2_Affine a) {
      return getCPtr(a);
    }
  }
}

package dev.interlock.prover.curve;

import java.math.BigInteger;
import java.util.List;
import java.util.Objects;

/**
 * Scalar conventions of the curve layer: the group order r and canonical little-endian encodings.
 */
public final class Scalars {
  /** The prime order r of G1, G2 and GT (the modulus of the scalar field F_r), 255 bits. */
  public static final BigInteger R =
      new BigInteger("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);

  /** Bytes in one encoded scalar. */
  public static final int BYTES = 32;

  /** 64-bit limbs in one scalar. */
  public static final int LIMBS = 4;

  /** Bits a canonical scalar can occupy (r &lt; 2^255). */
  static final int BITS = 255;

  private static final long[] R_LIMBS = limbsOf(R);

  private Scalars() {}

  /** The canonical 32-byte little-endian encoding of {@code v}, which must lie in [0, r). */
  public static byte[] toLittleEndianBytes(BigInteger v) {
    requireCanonical(v);
    byte[] be = v.toByteArray(); // big-endian, possibly with a leading sign byte
    byte[] le = new byte[BYTES];
    for (int i = 0; i < be.length && i < BYTES; i++) {
      le[i] = be[be.length - 1 - i];
    }
    return le;
  }

  /** The value of a 32-byte little-endian encoding (not range-checked). */
  public static BigInteger fromLittleEndianBytes(byte[] le32) {
    Objects.requireNonNull(le32, "le32");
    if (le32.length != BYTES) {
      throw new IllegalArgumentException(
          "scalar: expected " + BYTES + " bytes, got " + le32.length);
    }
    return fromLittleEndianBytes(le32, 0);
  }

  /** Flat canonical limbs (4 per value, little-endian) of values that must each lie in [0, r). */
  public static long[] toLimbs(List<BigInteger> values) {
    long[] out = new long[LIMBS * values.size()];
    for (int i = 0; i < values.size(); i++) {
      BigInteger v = values.get(i);
      requireCanonical(v);
      System.arraycopy(limbsOf(v), 0, out, LIMBS * i, LIMBS);
    }
    return out;
  }

  /** The value of scalar {@code index} of a flat limb array (limbs [4 index, 4 index + 4)). */
  public static BigInteger fromLimbs(long[] limbs, int index) {
    BigInteger v = BigInteger.ZERO;
    for (int k = LIMBS - 1; k >= 0; k--) {
      v = v.shiftLeft(64).or(unsigned(limbs[LIMBS * index + k]));
    }
    return v;
  }

  // ---- package-private helpers ----

  static void requireCanonical(BigInteger v) {
    Objects.requireNonNull(v, "scalar");
    if (v.signum() < 0 || v.compareTo(R) >= 0) {
      throw new IllegalArgumentException("scalar " + v + " is not canonical: expected 0 <= s < r");
    }
  }

  /** Whether limbs [off, off + 4) encode a value below r. */
  public static boolean isCanonical(long[] limbs, int off) {
    for (int k = LIMBS - 1; k >= 0; k--) {
      int cmp = Long.compareUnsigned(limbs[off + k], R_LIMBS[k]);
      if (cmp != 0) {
        return cmp < 0;
      }
    }
    return false; // equal to r
  }

  /** Throws unless every scalar of a flat limb array is canonical; {@code what} names the input. */
  static void requireAllCanonical(long[] limbs, String what) {
    for (int off = 0; off < limbs.length; off += LIMBS) {
      if (!isCanonical(limbs, off)) {
        throw new IllegalArgumentException(
            what
                + ": scalar "
                + off / LIMBS
                + " = "
                + fromLimbs(limbs, off / LIMBS)
                + " is not canonical (expected 0 <= s < r; scalars are canonical, not Montgomery,"
                + " and not reduced here)");
      }
    }
  }

  /** Flat little-endian bytes (32 per scalar) to flat limbs (4 per scalar); values not checked. */
  static long[] limbsFromBytes(byte[] bytes) {
    if (bytes.length % BYTES != 0) {
      throw new IllegalArgumentException(
          "scalars: byte length " + bytes.length + " is not a multiple of " + BYTES);
    }
    long[] out = new long[bytes.length / 8];
    for (int i = 0; i < out.length; i++) {
      long v = 0;
      for (int b = 7; b >= 0; b--) {
        v = (v << 8) | (bytes[8 * i + b] & 0xffL);
      }
      out[i] = v;
    }
    return out;
  }

  static BigInteger fromLittleEndianBytes(byte[] bytes, int off) {
    byte[] be = new byte[BYTES];
    for (int i = 0; i < BYTES; i++) {
      be[i] = bytes[off + BYTES - 1 - i];
    }
    return new BigInteger(1, be);
  }

  /** The canonical scalar of a 32-byte little-endian encoding; throws unless it is below r. */
  static BigInteger canonicalFromBytes(byte[] le32) {
    BigInteger v = fromLittleEndianBytes(le32);
    if (v.compareTo(R) >= 0) {
      throw new IllegalArgumentException("scalar " + v + " is not canonical: expected 0 <= s < r");
    }
    return v;
  }

  private static long[] limbsOf(BigInteger v) {
    long[] out = new long[LIMBS];
    for (int k = 0; k < LIMBS; k++) {
      out[k] = v.shiftRight(64 * k).longValue();
    }
    return out;
  }

  private static BigInteger unsigned(long x) {
    BigInteger v = BigInteger.valueOf(x & Long.MAX_VALUE);
    return x < 0 ? v.setBit(63) : v;
  }
}

package dev.interlock.prover.field;

import java.math.BigInteger;
import java.util.SplittableRandom;

/** Seeded randomness and BigInteger references for the field tests. */
final class FieldTestSupport {
  static final BigInteger R = Fr.MODULUS;

  private FieldTestSupport() {}

  /** A generator seeded from -Dinterlock.seed when set, else from {@code defaultSeed}; prints the seed. */
  static SplittableRandom random(String test, long defaultSeed) {
    String property = System.getProperty("interlock.seed", "");
    long seed = property.isBlank() ? defaultSeed : Long.parseLong(property.strip());
    System.out.println("[interlock] " + test + " seed=" + seed + " (rerun with -Dinterlock.seed=" + seed + ")");
    return new SplittableRandom(seed);
  }

  /** A uniform value in [0, r), drawn independently of Fr's own sampler. */
  static BigInteger scalar(SplittableRandom rnd) {
    BigInteger s;
    do {
      byte[] b = new byte[32];
      rnd.nextBytes(b);
      b[0] &= 0x7f;
      s = new BigInteger(1, b);
    } while (s.compareTo(R) >= 0);
    return s;
  }

  /** A vector holding the given canonical values. */
  static long[] vector(BigInteger... values) {
    long[] v = Fr.newVector(values.length);
    for (int i = 0; i < values.length; i++) {
      Fr.fromBigInteger(values[i], v, i);
    }
    return v;
  }

  /** The canonical values of a vector. */
  static BigInteger[] values(long[] v) {
    BigInteger[] out = new BigInteger[Fr.size(v)];
    for (int i = 0; i < out.length; i++) {
      out[i] = Fr.toBigInteger(v, i);
    }
    return out;
  }

}

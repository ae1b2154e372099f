package dev.interlock.prover.curve;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Seeded randomness and random points for the curve tests. */
final class CurveTestSupport {
  static final BigInteger R = Scalars.R;
  static final BigInteger R_MINUS_1 = R.subtract(BigInteger.ONE);

  private CurveTestSupport() {}

  private static final Set<String> PRINTED = ConcurrentHashMap.newKeySet();

  /**
   * A Random seeded from -Dinterlock.seed when set, else from {@code defaultSeed}; the seed is
   * printed once per test class. Each test method gets its own Random with this seed.
   */
  static Random random(String test, long defaultSeed) {
    String property = System.getProperty("interlock.seed", "");
    long seed = property.isBlank() ? defaultSeed : Long.parseLong(property.strip());
    if (PRINTED.add(test)) {
      System.out.println(
          "[interlock] " + test + " seed=" + seed + " (rerun with -Dinterlock.seed=" + seed + ")");
    }
    return new Random(seed);
  }

  /** A uniform scalar in [0, r). */
  static BigInteger scalar(Random rnd) {
    BigInteger s;
    do {
      s = new BigInteger(255, rnd);
    } while (s.compareTo(R) >= 0);
    return s;
  }

  /** A nonzero scalar in [1, r). */
  static BigInteger nonzeroScalar(Random rnd) {
    BigInteger s;
    do {
      s = scalar(rnd);
    } while (s.signum() == 0);
    return s;
  }

  static G1 g1(Random rnd) {
    return G1.generator().mul(nonzeroScalar(rnd));
  }

  static G2 g2(Random rnd) {
    return G2.generator().mul(nonzeroScalar(rnd));
  }

  static List<BigInteger> scalars(Random rnd, int n) {
    List<BigInteger> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(scalar(rnd));
    }
    return out;
  }

  /** Edge scalars 0, 1, r-1 in turn, with a random scalar every fourth place. */
  static List<BigInteger> edgeScalars(Random rnd, int n) {
    List<BigInteger> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      switch (i % 4) {
        case 0:
          out.add(BigInteger.ZERO);
          break;
        case 1:
          out.add(BigInteger.ONE);
          break;
        case 2:
          out.add(R_MINUS_1);
          break;
        default:
          out.add(scalar(rnd));
          break;
      }
    }
    return out;
  }
}

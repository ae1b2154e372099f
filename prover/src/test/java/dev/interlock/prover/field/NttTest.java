package dev.interlock.prover.field;

import static dev.interlock.prover.field.FieldTestSupport.R;
import static dev.interlock.prover.field.FieldTestSupport.scalar;
import static dev.interlock.prover.field.FieldTestSupport.values;
import static dev.interlock.prover.field.FieldTestSupport.vector;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** NTTs against naive O(n^2) evaluation with BigInteger, round trips, cosets, convolution and determinism. */
@Timeout(60)
class NttTest {
  /** omega_n computed with BigInteger only: (7^((r-1)/2^32))^(2^(32-logN)). */
  private static BigInteger omega(int logN) {
    BigInteger root = BigInteger.valueOf(7).modPow(R.subtract(BigInteger.ONE).shiftRight(32), R);
    return root.modPow(BigInteger.ONE.shiftLeft(32 - logN), R);
  }

  /** c(x) by Horner's rule, in BigInteger. */
  private static BigInteger evaluate(BigInteger[] c, BigInteger x) {
    BigInteger acc = BigInteger.ZERO;
    for (int i = c.length - 1; i >= 0; i--) {
      acc = acc.multiply(x).add(c[i]).mod(R);
    }
    return acc;
  }

  /** c(x) by Horner's rule in Fr, for samples of big transforms. */
  private static FrElement evaluate(long[] c, FrElement x) {
    long[] acc = Fr.newVector(1);
    long[] xv = Fr.newVector(1);
    x.writeTo(xv, 0);
    for (int i = Fr.size(c) - 1; i >= 0; i--) {
      Fr.mul(acc, 0, xv, 0, acc, 0);
      Fr.add(acc, 0, c, i, acc, 0);
    }
    return FrElement.read(acc, 0);
  }

  @Test
  void forwardEqualsNaiveEvaluationAtPowersOfOmega() {
    SplittableRandom rnd = FieldTestSupport.random("NttTest.forwardNaive", 41);
    for (int logN = 0; logN <= 8; logN++) {
      int n = 1 << logN;
      long[] v = Fr.randomVector(rnd, n);
      BigInteger[] c = values(v);
      Ntt.forward(v, logN);
      BigInteger w = omega(logN);
      BigInteger x = BigInteger.ONE;
      for (int i = 0; i < n; i++) {
        assertThat(Fr.toBigInteger(v, i)).as("n=2^%d, point %d", logN, i).isEqualTo(evaluate(c, x));
        x = x.multiply(w).mod(R);
      }
    }
  }

  @Test
  void largeForwardMatchesEvaluationAtSampledPoints() {
    SplittableRandom rnd = FieldTestSupport.random("NttTest.forwardSampled", 43);
    for (int logN : new int[] {11, 13, 15, 16}) {
      int n = 1 << logN;
      long[] c = Fr.randomVector(rnd, n);
      for (boolean parallel : new boolean[] {false, true}) {
        long[] v = c.clone();
        Ntt.forward(v, logN, parallel);
        Domain d = Domain.of(logN);
        int[] points = {0, 1, n / 2, n - 1, rnd.nextInt(n), rnd.nextInt(n)};
        for (int i : points) {
          assertThat(FrElement.read(v, i)).as("n=2^%d point %d parallel=%s", logN, i, parallel).isEqualTo(evaluate(c, d.element(i)));
        }
      }
    }
  }

  @Test
  void knownTransforms() {
    int logN = 4;
    int n = 16;
    // delta at 0 -> all ones; all ones -> n at 0, zero elsewhere
    long[] delta = Fr.newVector(n);
    Fr.setOne(delta, 0);
    Ntt.forward(delta, logN);
    for (int i = 0; i < n; i++) {
      assertThat(Fr.isOne(delta, i)).isTrue();
    }
    Ntt.forward(delta, logN);
    assertThat(Fr.toBigInteger(delta, 0)).isEqualTo(BigInteger.valueOf(n));
    for (int i = 1; i < n; i++) {
      assertThat(Fr.isZero(delta, i)).isTrue();
    }
    // x -> powers of omega
    long[] x = Fr.newVector(n);
    Fr.setOne(x, 1);
    Ntt.forward(x, logN);
    for (int i = 0; i < n; i++) {
      assertThat(Fr.toBigInteger(x, i)).isEqualTo(omega(logN).modPow(BigInteger.valueOf(i), R));
    }
  }

  @Test
  void inverseUndoesForwardUpTo2To16() {
    SplittableRandom rnd = FieldTestSupport.random("NttTest.roundTrip", 47);
    for (int logN = 0; logN <= 16; logN++) {
      long[] v = Fr.randomVector(rnd, 1 << logN);
      long[] w = v.clone();
      Ntt.forward(w, logN);
      if (logN >= 2) {
        assertThat(w).as("the transform changed something").isNotEqualTo(v);
      }
      Ntt.inverse(w, logN);
      assertThat(w).as("inverse(forward(v)) n=2^%d", logN).isEqualTo(v);
      Ntt.inverse(w, logN);
      Ntt.forward(w, logN);
      assertThat(w).as("forward(inverse(v)) n=2^%d", logN).isEqualTo(v);
    }
  }

  @Test
  void cosetForwardEqualsNaiveEvaluationOnTheCoset() {
    SplittableRandom rnd = FieldTestSupport.random("NttTest.cosetNaive", 53);
    BigInteger customShift = scalar(rnd).max(BigInteger.TWO);
    for (int logN = 0; logN <= 8; logN++) {
      int n = 1 << logN;
      for (BigInteger g : new BigInteger[] {BigInteger.valueOf(7), customShift}) {
        long[] v = Fr.randomVector(rnd, n);
        BigInteger[] c = values(v);
        if (g.equals(BigInteger.valueOf(7))) {
          Ntt.cosetForward(v, logN);
        } else {
          Ntt.cosetForward(v, logN, FrElement.of(g));
        }
        BigInteger w = omega(logN);
        BigInteger x = g;
        for (int i = 0; i < n; i++) {
          assertThat(Fr.toBigInteger(v, i)).as("n=2^%d, point g·omega^%d", logN, i).isEqualTo(evaluate(c, x));
          x = x.multiply(w).mod(R);
        }
        if (g.equals(BigInteger.valueOf(7))) {
          Ntt.cosetInverse(v, logN);
        } else {
          Ntt.cosetInverse(v, logN, FrElement.of(g));
        }
        assertThat(values(v)).isEqualTo(c);
      }
    }
  }

  @Test
  void cosetRoundTripAndSampledPointsForLargeSizes() {
    SplittableRandom rnd = FieldTestSupport.random("NttTest.cosetLarge", 59);
    for (int logN : new int[] {10, 14, 16}) {
      int n = 1 << logN;
      long[] c = Fr.randomVector(rnd, n);
      long[] v = c.clone();
      Ntt.cosetForward(v, logN);
      Domain d = Domain.of(logN);
      for (int i : new int[] {0, 1, n - 1, rnd.nextInt(n)}) {
        assertThat(FrElement.read(v, i)).isEqualTo(evaluate(c, d.cosetShift().mul(d.element(i))));
      }
      Ntt.cosetInverse(v, logN);
      assertThat(v).isEqualTo(c);
    }
  }

  @Test
  void omegaHasExactOrderN() {
    for (int logN = 1; logN <= Ntt.MAX_LOG_N; logN++) {
      FrElement w = Domain.of(logN).omega();
      assertThat(w.toBigInteger()).isEqualTo(omega(logN));
      assertThat(w.pow(1L << (logN - 1))).as("omega^(n/2) = -1 for n = 2^%d", logN).isEqualTo(FrElement.of(-1));
      assertThat(w.pow(1L << logN).isOne()).isTrue();
    }
    // the cached twiddles are the powers of omega
    long[] tw = Ntt.twiddles(6);
    assertThat(Fr.size(tw)).isEqualTo(32);
    for (int j = 0; j < 32; j++) {
      assertThat(FrElement.read(tw, j)).isEqualTo(Domain.of(6).element(j));
    }
    assertThat(Ntt.twiddles(6)).isSameAs(tw);
  }

  @Test
  void transformIsLinear() {
    SplittableRandom rnd = FieldTestSupport.random("NttTest.linearity", 61);
    for (int logN : new int[] {3, 10, 15}) {
      int n = 1 << logN;
      long[] x = Fr.randomVector(rnd, n);
      long[] y = Fr.randomVector(rnd, n);
      long[] ab = Fr.randomVector(rnd, 2);
      long[] combo = Fr.newVector(n);
      long[] t = Fr.newVector(1);
      for (int i = 0; i < n; i++) {
        Fr.mul(ab, 0, x, i, combo, i);
        Fr.mul(ab, 1, y, i, t, 0);
        Fr.add(combo, i, t, 0, combo, i);
      }
      Ntt.forward(x, logN);
      Ntt.forward(y, logN);
      Ntt.forward(combo, logN);
      for (int i = 0; i < n; i++) {
        Fr.mul(ab, 0, x, i, x, i);
        Fr.mul(ab, 1, y, i, y, i);
        Fr.add(x, i, y, i, x, i);
        assertThat(Fr.equals(x, i, combo, i)).as("n=2^%d, i=%d", logN, i).isTrue();
      }
    }
  }

  @Test
  void multiplyingPolynomialsByNttEqualsNaiveConvolution() {
    SplittableRandom rnd = FieldTestSupport.random("NttTest.convolution", 67);
    for (int logN = 1; logN <= 7; logN++) {
      int n = 1 << logN;
      int degA = rnd.nextInt(n / 2 + 1);
      int degB = n - 1 - degA; // deg(a·b) = n - 1: uses every coefficient, no wrap-around
      BigInteger[] a = new BigInteger[n];
      BigInteger[] b = new BigInteger[n];
      for (int i = 0; i < n; i++) {
        a[i] = i <= degA ? scalar(rnd) : BigInteger.ZERO;
        b[i] = i <= degB ? scalar(rnd) : BigInteger.ZERO;
      }
      BigInteger[] expected = new BigInteger[n];
      java.util.Arrays.fill(expected, BigInteger.ZERO);
      for (int i = 0; i <= degA; i++) {
        for (int j = 0; j <= degB; j++) {
          expected[i + j] = expected[i + j].add(a[i].multiply(b[j])).mod(R);
        }
      }
      for (boolean coset : new boolean[] {false, true}) {
        long[] va = vector(a);
        long[] vb = vector(b);
        if (coset) {
          Ntt.cosetForward(va, logN);
          Ntt.cosetForward(vb, logN);
        } else {
          Ntt.forward(va, logN);
          Ntt.forward(vb, logN);
        }
        for (int i = 0; i < n; i++) {
          Fr.mul(va, i, vb, i, va, i);
        }
        if (coset) {
          Ntt.cosetInverse(va, logN);
        } else {
          Ntt.inverse(va, logN);
        }
        assertThat(values(va)).as("n=2^%d coset=%s", logN, coset).isEqualTo(expected);
      }
    }
    // wrap-around: a product of degree ≥ n is reduced mod x^n - 1 (cyclic convolution)
    long[] x = Fr.newVector(4);
    Fr.setOne(x, 3); // x^3
    long[] y = x.clone();
    Ntt.forward(x, 2);
    Ntt.forward(y, 2);
    for (int i = 0; i < 4; i++) {
      Fr.mul(x, i, y, i, x, i);
    }
    Ntt.inverse(x, 2);
    assertThat(values(x)).containsExactly(BigInteger.ZERO, BigInteger.ZERO, BigInteger.ONE, BigInteger.ZERO);
  }

  @Test
  void parallelAndSequentialAgreeBitForBit() {
    SplittableRandom rnd = FieldTestSupport.random("NttTest.determinism", 71);
    for (int logN : new int[] {11, 14, 16}) {
      long[] v = Fr.randomVector(rnd, 1 << logN);
      long[] s = v.clone();
      long[] p = v.clone();
      Ntt.forward(s, logN, false);
      Ntt.forward(p, logN, true);
      assertThat(p).isEqualTo(s);
      Ntt.inverse(s, logN, false);
      Ntt.inverse(p, logN, true);
      assertThat(p).isEqualTo(s).isEqualTo(v);
      FrElement g = FrElement.of(5);
      Ntt.cosetForward(s, logN, g, false);
      Ntt.cosetForward(p, logN, g, true);
      assertThat(p).isEqualTo(s);
      Ntt.cosetInverse(s, logN, g, false);
      Ntt.cosetInverse(p, logN, g, true);
      assertThat(p).isEqualTo(s).isEqualTo(v);
    }
  }

  @Test
  void concurrentTransformsShareTheCacheSafely() throws Exception {
    SplittableRandom rnd = FieldTestSupport.random("NttTest.concurrent", 73);
    Ntt.clearCache();
    int[] sizes = {9, 12, 9, 12, 13, 13, 5, 12};
    List<long[]> inputs = new ArrayList<>();
    List<long[]> expected = new ArrayList<>();
    for (int logN : sizes) {
      long[] v = Fr.randomVector(rnd, 1 << logN);
      inputs.add(v);
      expected.add(v);
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<long[]>> results = new ArrayList<>();
      for (int k = 0; k < sizes.length; k++) {
        long[] v = inputs.get(k).clone();
        int logN = sizes[k];
        results.add(pool.submit(() -> {
          Ntt.forward(v, logN);
          return v;
        }));
      }
      for (int k = 0; k < sizes.length; k++) {
        long[] ref = expected.get(k).clone();
        Ntt.forward(ref, sizes[k], false);
        assertThat(results.get(k).get()).as("job %d", k).isEqualTo(ref);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> Ntt.forward(Fr.newVector(8), 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not 2^2 elements");
    assertThatThrownBy(() -> Ntt.inverse(new long[3], 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Ntt.forward(new long[4], -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("logN");
    assertThatThrownBy(() -> Ntt.forward(new long[4], 29)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Ntt.forward(null, 1)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> Ntt.cosetForward(new long[4], 0, null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> Ntt.cosetInverse(new long[4], 0, FrElement.ZERO)).isInstanceOf(ArithmeticException.class);
    // n = 1: every transform is the identity
    long[] one = vector(BigInteger.valueOf(42));
    Ntt.forward(one, 0);
    Ntt.inverse(one, 0);
    assertThat(Fr.toBigInteger(one, 0)).isEqualTo(BigInteger.valueOf(42));
    Ntt.cosetForward(one, 0);
    assertThat(Fr.toBigInteger(one, 0)).isEqualTo(BigInteger.valueOf(42));
  }
}

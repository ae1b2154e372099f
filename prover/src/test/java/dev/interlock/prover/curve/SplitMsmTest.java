package dev.interlock.prover.curve;

import static dev.interlock.prover.curve.CurveTestSupport.R_MINUS_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The split MSM (ones summed by batch addition, zeros left out, a tail MSM over the rest) against the plain MSM, on
 * random mixes of 0, 1 and full-width scalars and on the edge cases: nothing, all zero, all one, no tail, all tail,
 * a tail of one; natively and in Java. And blst's Pippenger run window by window, for every window size.
 */
@Timeout(180)
class SplitMsmTest {
  private static final int MAX_N = 9000;

  private static Random rnd;
  private static List<G1> g1Points;
  private static List<G2> g2Points;

  @BeforeAll
  static void bases() {
    rnd = CurveTestSupport.random("SplitMsmTest", 0x5_9117L);
    g1Points = new ArrayList<>(MAX_N);
    g2Points = new ArrayList<>(2000);
    G1 p = CurveTestSupport.g1(rnd);
    G1 dp = CurveTestSupport.g1(rnd);
    for (int i = 0; i < MAX_N; i++) {
      g1Points.add(p);
      p = p.add(dp);
    }
    G2 q = CurveTestSupport.g2(rnd);
    G2 dq = CurveTestSupport.g2(rnd);
    for (int i = 0; i < 2000; i++) {
      g2Points.add(q);
      q = q.add(dq);
    }
    g1Points.set(7, G1.identity()); // an identity base (a variable B never uses has one in b_g2_query)
    g2Points.set(7, G2.identity());
    g1Points.set(8, g1Points.get(9)); // a repeated base: the batch addition meets P + P
    g2Points.set(8, g2Points.get(9));
    Collections.shuffle(g1Points, rnd);
    Collections.shuffle(g2Points, rnd);
  }

  /** n scalars: each full-width with probability full, else 1 with probability ones, else 0. */
  private static long[] mix(int n, double full, double ones) {
    List<BigInteger> s = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      double u = rnd.nextDouble();
      s.add(u < full ? (rnd.nextInt(4) == 0 ? R_MINUS_1 : CurveTestSupport.scalar(rnd))
          : rnd.nextDouble() < ones ? BigInteger.ONE : BigInteger.ZERO);
    }
    return Scalars.toLimbs(s);
  }

  private static void assertG1(int n, long[] scalars, String what) {
    G1Bases b = G1Bases.of(g1Points.subList(0, n));
    G1 plain = Msm.msm(b, scalars);
    assertThat(Msm.split(b, scalars, false)).as("G1 native split, %s, n=%d", what, n).isEqualTo(plain);
    assertThat(Msm.split(b, scalars, true)).as("G1 Java split, %s, n=%d", what, n).isEqualTo(plain);
    assertThat(Msm.msmSplit(b, scalars)).as("G1 msmSplit, %s, n=%d", what, n).isEqualTo(plain);
  }

  private static void assertG2(int n, long[] scalars, String what) {
    G2Bases b = G2Bases.of(g2Points.subList(0, n));
    G2 plain = Msm.msm(b, scalars);
    assertThat(Msm.split(b, scalars, false)).as("G2 native split, %s, n=%d", what, n).isEqualTo(plain);
    assertThat(Msm.split(b, scalars, true)).as("G2 Java split, %s, n=%d", what, n).isEqualTo(plain);
    assertThat(Msm.msmSplit(b, scalars)).as("G2 msmSplit, %s, n=%d", what, n).isEqualTo(plain);
    // the tail alone: the plain MSM with every 1 made 0, and with the ones' sum added back the whole
    long[] noOnes = scalars.clone();
    G2 ones = G2.identity();
    for (int i = 0; i < n; i++) {
      if (Msm.isOne(scalars, i)) {
        java.util.Arrays.fill(noOnes, 4 * i, 4 * i + 4, 0L);
        ones = ones.add(g2Points.get(i));
      }
    }
    G2 tail = Msm.msmOfFullScalars(b, scalars);
    assertThat(tail).as("G2 tail, %s, n=%d", what, n).isEqualTo(Msm.msm(b, noOnes));
    assertThat(tail.add(ones)).as("G2 tail + ones, %s, n=%d", what, n).isEqualTo(plain);
  }

  @Test
  void partsOverSeveralChunksListEveryOneAndFullScalarInOrder() {
    for (int n : new int[] {SplitMsm.PARTS_CHUNK - 1, SplitMsm.PARTS_CHUNK, 3 * SplitMsm.PARTS_CHUNK + 5}) {
      long[] s = new long[Scalars.LIMBS * n];
      for (int i = 0; i < n; i++) {
        int kind = rnd.nextInt(n > SplitMsm.PARTS_CHUNK && i / SplitMsm.PARTS_CHUNK == 1 ? 1 : 3); // chunk 1: all zero
        if (kind == 1) {
          s[Scalars.LIMBS * i] = 1;
        } else if (kind == 2) {
          s[Scalars.LIMBS * i + rnd.nextInt(Scalars.LIMBS)] = 2 + rnd.nextInt(1000);
        }
      }
      List<Integer> ones = new ArrayList<>();
      List<Integer> full = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int c = SplitMsm.classify(s, i);
        if (c == SplitMsm.ONE) {
          ones.add(i);
        } else if (c == SplitMsm.FULL) {
          full.add(i);
        }
      }
      SplitMsm.Parts p = SplitMsm.parts(s, n);
      assertThat(p.ones()).as("ones, n=%d", n).containsExactly(ones.stream().mapToInt(Integer::intValue).toArray());
      assertThat(p.full()).as("full, n=%d", n).containsExactly(full.stream().mapToInt(Integer::intValue).toArray());
    }
  }

  @Test
  void randomMixesEqualThePlainMsm() {
    for (int n : new int[] {1, 2, 3, 7, 64, 300, 1000}) {
      for (double full : new double[] {0.01, 0.1, 0.5}) {
        long[] s = mix(n, full, 0.4);
        assertG1(n, s, "full share " + full);
        assertG2(n, s, "full share " + full);
      }
    }
  }

  @Test
  void edgeCasesEqualThePlainMsm() {
    for (int n : new int[] {0, 1, 2, 100, 2000}) {
      assertG1(n, mix(n, 0, 0), "all zero");
      assertG2(n, mix(n, 0, 0), "all zero");
      assertG1(n, mix(n, 0, 1), "all one");
      assertG2(n, mix(n, 0, 1), "all one");
      assertG1(n, mix(n, 0, 0.5), "no tail");
      assertG2(n, mix(n, 0, 0.5), "no tail");
      assertG1(n, mix(n, 1, 0), "all tail");
      assertG2(n, mix(n, 1, 0), "all tail");
    }
    long[] oneFull = mix(500, 0, 0.5);
    oneFull[4 * 123] = 5; // a tail of one scalar
    assertG1(500, oneFull, "tail of one");
    assertG2(500, oneFull, "tail of one");
  }

  @Test
  void batchAdditionInSeveralChunksEqualsThePlainMsm() {
    // more ones than two chunks of BlstMsm.MIN_CHUNK, so that with two or more threads the sum is cut in chunks
    long[] s = mix(MAX_N, 0.02, 0.95);
    assertG1(MAX_N, s, "many ones");
  }

  @Test
  void blstPippengerWindowByWindowEqualsTheNaiveSumForEveryWindow() {
    if (System.getProperty("os.name").startsWith("Linux") && System.getProperty("os.arch").equals("amd64")) {
      assertThat(BlstMsm.available()).as(BlstMsm.description()).isTrue(); // jblst ships libblst here
    }
    assumeTrue(BlstMsm.available(), () -> "native MSM skipped: " + BlstMsm.description());
    int n = 40;
    List<BigInteger> edge = CurveTestSupport.edgeScalars(rnd, n); // 0, 1, r-1 and random: carries out of every window
    long[] s = Scalars.toLimbs(edge);
    int[] idx = new int[n];
    for (int i = 0; i < n; i++) {
      idx[i] = n - 1 - i; // a permutation: the tail's bases are picked by index
    }
    G1Bases b1 = G1Bases.of(g1Points.subList(0, n));
    G2Bases b2 = G2Bases.of(g2Points.subList(0, n));
    long[] permuted = new long[s.length];
    for (int k = 0; k < n; k++) {
      System.arraycopy(s, 4 * k, permuted, 4 * idx[k], 4);
    }
    G1 want1 = Msm.naive(b1, permuted);
    G2 want2 = Msm.naive(b2, permuted);
    for (int window = 1; window <= Msm.MAX_WINDOW_BITS; window++) {
      for (int threads : new int[] {1, 3}) {
        assertThat(G1.wrap(BlstMsm.g1Windows(b1.affine(), idx, s, n, window, threads)))
            .as("G1 window %d, %d threads", window, threads).isEqualTo(want1);
      }
      assertThat(G2.wrap(BlstMsm.g2Windows(b2.affine(), idx, s, n, window, 2))).as("G2 window %d", window)
          .isEqualTo(want2);
    }
  }

  @Test
  void scalarSplitCountsZerosOnesAndFullScalars() {
    long[] s = Scalars.toLimbs(List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, R_MINUS_1, BigInteger.ONE,
        BigInteger.ONE.shiftLeft(64)));
    ScalarSplit split = ScalarSplit.of(s);
    assertThat(split).isEqualTo(new ScalarSplit(1, 2, 3));
    assertThat(split.binaryShare()).isEqualTo(0.5);
  }
}

package dev.interlock.prover.curve;

import static dev.interlock.prover.curve.CurveTestSupport.R;
import static dev.interlock.prover.curve.CurveTestSupport.R_MINUS_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import supranational.blst.P1;
import supranational.blst.P2;

/** Pippenger MSM against the naive sum of scalar multiplications, and its signed digits. */
@Timeout(120)
class MsmTest {
  private static final int[] SIZES = {0, 1, 2, 3, 7, 64, 100, 257, 1000};
  private static final int MAX_N = 1000;

  private static Random rnd;
  private static List<G1> g1Points;
  private static List<G2> g2Points;

  @BeforeAll
  static void bases() {
    rnd = CurveTestSupport.random("MsmTest", 0x3_5EEDL);
    // random points cheaply: a random start plus multiples of a random step
    g1Points = new ArrayList<>(MAX_N);
    g2Points = new ArrayList<>(MAX_N);
    G1 p = CurveTestSupport.g1(rnd);
    G1 dp = CurveTestSupport.g1(rnd);
    G2 q = CurveTestSupport.g2(rnd);
    G2 dq = CurveTestSupport.g2(rnd);
    for (int i = 0; i < MAX_N; i++) {
      g1Points.add(p);
      g2Points.add(q);
      p = p.add(dp);
      q = q.add(dq);
      if (i % 50 == 49) { // change the step now and then
        dp = dp.dbl().add(CurveTestSupport.g1(rnd));
        dq = dq.dbl().add(G2.generator());
      }
    }
    Collections.shuffle(g1Points, rnd);
    Collections.shuffle(g2Points, rnd);
  }

  private static G1Bases g1Bases(int n) {
    return G1Bases.of(g1Points.subList(0, n));
  }

  private static G2Bases g2Bases(int n) {
    return G2Bases.of(g2Points.subList(0, n));
  }

  // ---- signed digits ----

  @Test
  void signedDigitsRecombineToTheScalarWithinRange() {
    List<BigInteger> values =
        new ArrayList<>(
            List.of(
                BigInteger.ZERO,
                BigInteger.ONE,
                R_MINUS_1,
                BigInteger.ONE.shiftLeft(255).subtract(BigInteger.ONE), // all 255 bits set
                BigInteger.ONE.shiftLeft(254),
                BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE),
                BigInteger.ONE.shiftLeft(64)));
    // patterns that make every window carry: h = 2^(c-1) + 1 in each window, and 2^c - 1
    for (int c = 1; c <= Msm.MAX_WINDOW_BITS; c++) {
      BigInteger allCarry = BigInteger.ZERO;
      BigInteger allHalf = BigInteger.ZERO;
      for (int j = 0; c * j < 255; j++) {
        allCarry = allCarry.or(BigInteger.valueOf((1L << c) - 1).shiftLeft(c * j));
        allHalf =
            allHalf.or(BigInteger.valueOf((1L << (c - 1)) + (c > 1 ? 1 : 0)).shiftLeft(c * j));
      }
      BigInteger mask = BigInteger.ONE.shiftLeft(255).subtract(BigInteger.ONE);
      values.add(allCarry.and(mask));
      values.add(allHalf.and(mask));
    }
    values.addAll(CurveTestSupport.scalars(rnd, 200));
    int checked = 0;
    for (BigInteger s : values) {
      long[] limbs = new long[4];
      for (int k = 0; k < 4; k++) {
        limbs[k] = s.shiftRight(64 * k).longValue();
      }
      for (int c = 1; c <= Msm.MAX_WINDOW_BITS; c++) {
        int[] d = Pippenger.signedDigits(limbs, 0, c);
        int h = 1 << (c - 1);
        BigInteger back = BigInteger.ZERO;
        for (int j = d.length - 1; j >= 0; j--) {
          assertThat(d[j]).as("s=%s c=%d j=%d", s, c, j).isBetween(-(h - 1), h);
          back = back.shiftLeft(c).add(BigInteger.valueOf(d[j]));
        }
        assertThat(back).as("s=%s c=%d digits", s, c).isEqualTo(s);
        checked++;
      }
    }
    assertThat(checked).isEqualTo(values.size() * Msm.MAX_WINDOW_BITS);
  }

  @Test
  void windowBitsFollowTheCostModel() {
    assertThat(Pippenger.windowBits(1, 1)).isBetween(1, 3);
    assertThat(Pippenger.windowBits(1 << 10, 1)).isEqualTo(7);
    assertThat(Pippenger.windowBits(1 << 16, 1)).isEqualTo(13);
    assertThat(Pippenger.windowBits(1 << 24, 1)).isEqualTo(Msm.MAX_WINDOW_BITS);
    int prev = 1;
    for (int n = 1; n <= 1 << 22; n *= 2) {
      int c = Pippenger.windowBits(n, 1);
      assertThat(c).as("n=%d", n).isGreaterThanOrEqualTo(prev);
      prev = c;
      for (int threads : new int[] {1, 2, 8, 16}) {
        assertThat(Pippenger.windowBits(n, threads)).isBetween(1, Msm.MAX_WINDOW_BITS);
      }
    }
    assertThat(Msm.windowBits(10)).isEqualTo(Pippenger.windowBits(10, 1)); // small n: sequential
  }

  // ---- MSM against the naive sum ----

  @Test
  void g1MatchesNaiveForRandomAndEdgeScalars() {
    for (int n : SIZES) {
      G1Bases bases = g1Bases(n);
      for (List<BigInteger> s :
          List.of(CurveTestSupport.scalars(rnd, n), CurveTestSupport.edgeScalars(rnd, n))) {
        long[] limbs = Scalars.toLimbs(s);
        G1 expected = Msm.naive(bases, limbs);
        assertThat(Msm.msm(bases, limbs)).as("n=%d", n).isEqualTo(expected);
        assertThat(Msm.msm(bases, bytes(s))).as("n=%d bytes", n).isEqualTo(expected);
        if (n > 0 && n <= 7) { // the naive reference itself, against G1.mul
          G1 sum = G1.identity();
          for (int i = 0; i < n; i++) {
            sum = sum.add(bases.get(i).mul(s.get(i)));
          }
          assertThat(expected).isEqualTo(sum);
        }
      }
    }
  }

  @Test
  void g2MatchesNaiveForRandomAndEdgeScalars() {
    for (int n : SIZES) {
      G2Bases bases = g2Bases(n);
      for (List<BigInteger> s :
          List.of(CurveTestSupport.scalars(rnd, n), CurveTestSupport.edgeScalars(rnd, n))) {
        long[] limbs = Scalars.toLimbs(s);
        G2 expected = Msm.naive(bases, limbs);
        assertThat(Msm.msm(bases, limbs)).as("n=%d", n).isEqualTo(expected);
        assertThat(Msm.msm(bases, bytes(s))).as("n=%d bytes", n).isEqualTo(expected);
        if (n > 0 && n <= 7) {
          G2 sum = G2.identity();
          for (int i = 0; i < n; i++) {
            sum = sum.add(bases.get(i).mul(s.get(i)));
          }
          assertThat(expected).isEqualTo(sum);
        }
      }
    }
  }

  @Test
  void everyWindowSizeGivesTheSameResult() {
    int n = 100;
    G1Bases b1 = g1Bases(n);
    G2Bases b2 = g2Bases(n);
    List<BigInteger> s = CurveTestSupport.scalars(rnd, n);
    s.set(0, R_MINUS_1);
    s.set(1, BigInteger.ONE.shiftLeft(254)); // top bit a canonical scalar can have
    long[] limbs = Scalars.toLimbs(s);
    G1 e1 = Msm.naive(b1, limbs);
    G2 e2 = Msm.naive(b2, limbs);
    for (int c = 1; c <= Msm.MAX_WINDOW_BITS; c++) {
      assertThat(Msm.msm(b1, limbs, c)).as("G1 c=%d", c).isEqualTo(e1);
    }
    for (int c : new int[] {1, 2, 3, 4, 5, 8, 11}) {
      assertThat(Msm.msm(b2, limbs, c)).as("G2 c=%d", c).isEqualTo(e2);
    }
  }

  @Test
  void parallelAndSequentialAgreeAndAreRepeatable() {
    int n = 257;
    G1Bases b1 = g1Bases(n);
    G2Bases b2 = g2Bases(n);
    long[] limbs = Scalars.toLimbs(CurveTestSupport.scalars(rnd, n));
    int c = Msm.windowBits(n);
    P1 seq1 = Pippenger.msm(G1.OPS, b1.affine(), b1.negated(), limbs, n, c, false);
    P1 par1 = Pippenger.msm(G1.OPS, b1.affine(), b1.negated(), limbs, n, c, true);
    assertThat(G1.wrap(par1)).isEqualTo(G1.wrap(seq1));
    P2 seq2 = Pippenger.msm(G2.OPS, b2.affine(), b2.negated(), limbs, n, c, false);
    P2 par2 = Pippenger.msm(G2.OPS, b2.affine(), b2.negated(), limbs, n, c, true);
    assertThat(G2.wrap(par2)).isEqualTo(G2.wrap(seq2));
    G1 first = Msm.msm(b1, limbs);
    for (int i = 0; i < 3; i++) {
      assertThat(Msm.msm(b1, limbs).serialize()).isEqualTo(first.serialize());
    }
    assertThat(first).isEqualTo(G1.wrap(seq1));
  }

  @Test
  void specialBasesAndScalars() {
    G1 p = g1Points.get(0);
    G2 q = g2Points.get(0);
    // the same base many times with scalar 1: every addition in bucket 1 is a doubling
    for (int n : new int[] {2, 3, 64, 65}) {
      G1Bases same = G1Bases.of(Collections.nCopies(n, p));
      G2Bases same2 = G2Bases.of(Collections.nCopies(n, q));
      long[] ones = Scalars.toLimbs(Collections.nCopies(n, BigInteger.ONE));
      assertThat(Msm.msm(same, ones)).isEqualTo(p.mul(BigInteger.valueOf(n)));
      assertThat(Msm.msm(same2, ones)).isEqualTo(q.mul(BigInteger.valueOf(n)));
      long[] minus = Scalars.toLimbs(Collections.nCopies(n, R_MINUS_1));
      assertThat(Msm.msm(same, minus)).isEqualTo(p.mul(BigInteger.valueOf(-n)));
    }
    // P and -P with the same scalars cancel
    List<G1> pm = new ArrayList<>();
    List<BigInteger> s = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      BigInteger k = CurveTestSupport.scalar(rnd);
      pm.add(g1Points.get(i));
      pm.add(g1Points.get(i).neg());
      s.add(k);
      s.add(k);
    }
    assertThat(Msm.msm(G1Bases.of(pm), Scalars.toLimbs(s)).isIdentity()).isTrue();
    // identity bases contribute nothing; zero scalars give the identity
    List<G1> withIdentity = new ArrayList<>(g1Points.subList(0, 70));
    for (int i = 0; i < 70; i += 3) {
      withIdentity.set(i, G1.identity());
    }
    long[] limbs = Scalars.toLimbs(CurveTestSupport.scalars(rnd, 70));
    G1Bases wi = G1Bases.of(withIdentity);
    assertThat(Msm.msm(wi, limbs)).isEqualTo(Msm.naive(wi, limbs));
    assertThat(Msm.msm(wi, new long[4 * 70]).isIdentity()).isTrue();
    // n = 1 edge scalars
    G1Bases one = G1Bases.of(p);
    G2Bases one2 = G2Bases.of(q);
    for (BigInteger k : List.of(BigInteger.ZERO, BigInteger.ONE, BigInteger.TWO, R_MINUS_1)) {
      long[] l = Scalars.toLimbs(List.of(k));
      assertThat(Msm.msm(one, l)).as("k=%s", k).isEqualTo(p.mul(k));
      assertThat(Msm.msm(one2, l)).as("k=%s", k).isEqualTo(q.mul(k));
    }
    assertThat(Msm.msm(G1Bases.of(), new long[0]).isIdentity()).isTrue();
    assertThat(Msm.msm(G2Bases.of(), new byte[0]).isIdentity()).isTrue();
  }

  @Test
  void badInputsAreRejected() {
    G1Bases b = g1Bases(3);
    G2Bases b2 = g2Bases(3);
    long[] rAt1 = Scalars.toLimbs(List.of(BigInteger.ONE, BigInteger.ZERO, BigInteger.ZERO));
    long[] rLimbs = {
      0xffffffff00000001L, 0x53bda402fffe5bfeL, 0x3339d80809a1d805L, 0x73eda753299d7d48L
    };
    System.arraycopy(rLimbs, 0, rAt1, 4, 4);
    assertThatThrownBy(() -> Msm.msm(b, rAt1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("scalar 1 = " + R)
        .hasMessageContaining("not canonical");
    assertThatThrownBy(() -> Msm.msm(b2, rAt1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Msm.naive(b, rAt1)).isInstanceOf(IllegalArgumentException.class);
    long[] max = new long[12];
    java.util.Arrays.fill(max, -1L);
    assertThatThrownBy(() -> Msm.msm(b, max)).isInstanceOf(IllegalArgumentException.class);
    byte[] maxBytes = new byte[96];
    java.util.Arrays.fill(maxBytes, (byte) 0xff);
    assertThatThrownBy(() -> Msm.msm(b, maxBytes)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Msm.msm(b, new long[8]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("3 bases need 12 scalar limbs");
    assertThatThrownBy(() -> Msm.msm(b, new byte[64])).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Msm.msm(b, new byte[95]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("multiple of 32");
    assertThatThrownBy(() -> Msm.msm(b, new long[12], 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Msm.msm(b, new long[12], Msm.MAX_WINDOW_BITS + 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> G1Bases.of(java.util.Arrays.asList(G1.generator(), null)))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("base 1");
  }

  private static byte[] bytes(List<BigInteger> s) {
    byte[] out = new byte[32 * s.size()];
    for (int i = 0; i < s.size(); i++) {
      System.arraycopy(Scalars.toLittleEndianBytes(s.get(i)), 0, out, 32 * i, 32);
    }
    return out;
  }
}

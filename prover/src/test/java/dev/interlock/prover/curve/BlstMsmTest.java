package dev.interlock.prover.curve;

import static dev.interlock.prover.curve.CurveTestSupport.R_MINUS_1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * blst's native Pippenger (through JNA) against the Java Pippenger, in one chunk and split into several, with
 * identity bases and edge scalars at chunk boundaries.
 */
@Timeout(300)
class BlstMsmTest {
  /** Enough points for five chunks of at least MIN_CHUNK, plus an uneven remainder. */
  private static final int N = 5 * BlstMsm.MIN_CHUNK + 3;

  private static Random rnd;
  private static G1Bases g1;
  private static G2Bases g2;

  @BeforeAll
  static void bases() {
    // jblst ships libblst for Linux x86-64, where it must load; elsewhere the test skips, saying why
    boolean linuxX86 = System.getProperty("os.name").startsWith("Linux") && System.getProperty("os.arch").equals("amd64");
    if (linuxX86) {
      assertThat(BlstMsm.available()).as(BlstMsm.description()).isTrue();
    }
    assumeTrue(BlstMsm.available(), () -> "native MSM skipped: " + BlstMsm.description());
    rnd = CurveTestSupport.random("BlstMsmTest", 0xB157L);
    List<G1> p = new ArrayList<>(N);
    List<G2> q = new ArrayList<>(N);
    G1 a = CurveTestSupport.g1(rnd);
    G1 da = CurveTestSupport.g1(rnd);
    G2 b = CurveTestSupport.g2(rnd);
    G2 db = CurveTestSupport.g2(rnd);
    for (int i = 0; i < N; i++) {
      // every 97th base the identity (blst's all-zero affine point), so some chunk edges meet one
      p.add(i % 97 == 5 ? G1.identity() : a);
      q.add(i % 97 == 5 ? G2.identity() : b);
      a = a.add(da);
      b = b.add(db);
    }
    g1 = G1Bases.of(p);
    g2 = G2Bases.of(q);
  }

  @Test
  void loadsWhereJblstShipsALinuxLibrary() {
    String os = System.getProperty("os.name");
    String arch = System.getProperty("os.arch");
    boolean shipped = os.startsWith("Linux") && (arch.equals("amd64") || arch.equals("aarch64"));
    if (shipped) {
      assertThat(BlstMsm.available()).as(BlstMsm.description()).isTrue();
      assertThat(Msm.implementation()).startsWith("blst native Pippenger");
    }
    System.out.println("[interlock] MSM implementation: " + Msm.implementation());
  }

  @Test
  void chunksAreNeverSmallerThanTheMinimumNorMoreThanThreads() {
    assertThat(BlstMsm.chunks(2, 16)).isEqualTo(1);
    assertThat(BlstMsm.chunks(2 * BlstMsm.MIN_CHUNK - 1, 16)).isEqualTo(1);
    assertThat(BlstMsm.chunks(2 * BlstMsm.MIN_CHUNK, 16)).isEqualTo(2);
    assertThat(BlstMsm.chunks(1 << 22, 16)).isEqualTo(16);
    assertThat(BlstMsm.chunks(1 << 22, 1)).isEqualTo(1);
  }

  @Test
  void g1EqualsJavaPippengerInOneChunkAndInMany() {
    for (long[] limbs : scalarSets()) {
      G1 expected = Msm.msm(g1, limbs, Msm.windowBits(N));
      for (int threads : new int[] {1, 2, 5, 8}) {
        assertThat(G1.wrap(BlstMsm.g1(g1.affine(), limbs, N, threads)))
            .as("threads=%d", threads)
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void g2EqualsJavaPippengerInOneChunkAndInMany() {
    long[] limbs = scalarSets().get(1);
    G2 expected = Msm.msm(g2, limbs, Msm.windowBits(N));
    for (int threads : new int[] {1, 5}) {
      assertThat(G2.wrap(BlstMsm.g2(g2.affine(), limbs, N, threads)))
          .as("threads=%d", threads)
          .isEqualTo(expected);
    }
  }

  @Test
  void smallInputsEqualTheNaiveSum() {
    for (int n : new int[] {2, 3, 5, 33}) {
      G1Bases b1 = G1Bases.of(g1.toList().subList(0, n));
      G2Bases b2 = G2Bases.of(g2.toList().subList(0, n));
      long[] limbs = Scalars.toLimbs(CurveTestSupport.edgeScalars(rnd, n));
      assertThat(G1.wrap(BlstMsm.g1(b1.affine(), limbs, n, 4))).as("n=%d", n).isEqualTo(Msm.naive(b1, limbs));
      assertThat(G2.wrap(BlstMsm.g2(b2.affine(), limbs, n, 4))).as("n=%d", n).isEqualTo(Msm.naive(b2, limbs));
    }
  }

  @Test
  void fewerThanTwoPointsAreRefused() {
    assertThatThrownBy(() -> BlstMsm.g1(g1.affine(), new long[4], 1, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("n = 1");
  }

  /** Random scalars; then edge scalars (0, 1, r-1, random in turn) with r-1 on every chunk boundary. */
  private static List<long[]> scalarSets() {
    Random local = new Random(rnd.nextLong());
    List<BigInteger> random = CurveTestSupport.scalars(local, N);
    List<BigInteger> edge = CurveTestSupport.edgeScalars(local, N);
    for (int chunks = 2; chunks <= 5; chunks++) {
      for (int c = 1; c < chunks; c++) {
        int at = (int) ((long) c * N / chunks);
        edge.set(at - 1, R_MINUS_1);
        edge.set(at, R_MINUS_1);
      }
    }
    return List.of(Scalars.toLimbs(random), Scalars.toLimbs(edge));
  }
}

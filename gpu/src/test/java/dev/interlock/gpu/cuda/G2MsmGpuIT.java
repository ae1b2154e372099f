package dev.interlock.gpu.cuda;

import static dev.interlock.model.design.Sizes.GIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.prover.curve.G1Bases;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.curve.G2Bases;
import dev.interlock.prover.curve.G2Limbs;
import dev.interlock.prover.curve.Msm;
import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The G2 MSM kernels compute what blst computes on the CPU, on random inputs (the seed is printed) and edge scalars. */
class G2MsmGpuIT {
  private static final long SEED = Long.getLong("interlock.seed", System.nanoTime());
  private static final int MAX_LOG = 20;
  private static CudaDevice gpu;
  private static CudaProvingKernels proving;

  @BeforeAll
  static void open() {
    if (CudaDevice.unavailable().isEmpty()) {
      gpu = CudaDevice.open(8 * GIB, new KernelScratch(0, (1 << MAX_LOG) + 3, 1));
      proving = gpu.provingKernels();
      System.out.println("[interlock] G2MsmGpuIT seed " + SEED + " (rerun: -Dinterlock.seed=" + SEED + "), kernels from "
          + proving.kernels().image() + " on " + gpu.name() + "; CPU: " + Msm.implementation());
    }
  }

  @AfterAll
  static void close() {
    if (gpu != null) {
      gpu.close();
    }
  }

  private static SplittableRandom rng(String test) {
    return new SplittableRandom(SEED ^ test.hashCode());
  }

  /** Random G2 points: up to 256 random multiples of the generator, then progressions from them (one addition each). */
  static G2Bases randomBases(SplittableRandom rng, int n) {
    G2 step = G2.generator().mul(BigInteger.valueOf(rng.nextLong(1, Long.MAX_VALUE)));
    int distinct = Math.min(n, 256);
    long[] seeds = rng.longs(distinct).toArray();
    G2[] pts = new G2[n];
    IntStream.range(0, distinct).parallel().forEach(r -> {
      pts[r] = G2.generator().mul(new BigInteger(250, new java.util.Random(seeds[r])));
      for (int i = r + distinct; i < n; i += distinct) {
        pts[i] = pts[i - distinct].add(step);
      }
    });
    return G2Bases.of(pts);
  }

  private static G2 gpuMsm(G2Bases bases, long[] scalars) {
    int n = bases.size();
    DeviceBuffer b = gpu.allocate("test", "g2_bases", Math.max(1, n * 192L), false);
    DeviceBuffer s = gpu.allocate("test", "scalars", Math.max(1, n * 32L), false);
    try {
      proving.writeG2Bases(b, 0, bases);
      proving.writeScalars(s, 0, scalars);
      return proving.g2Msm("test", b, 0, s, 0).result();
    } finally {
      gpu.free(b);
      gpu.free(s);
    }
  }

  private static G2 cpuMsm(G2Bases bases, long[] mont) {
    return Msm.msm(bases, Fr.toCanonical(mont, 0, bases.size()));
  }

  @Test
  void g2MsmsMatchBlstIncludingEdgeScalarsAndOddSizes() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("g2 msm");
    long[] rMinus1 = Fr.newVector(1);
    FrElement.ONE.neg().writeTo(rMinus1, 0);
    for (int n : new int[] {1, 2, 3, 7, 100, 1000, 4097, 65_537}) {
      G2Bases bases = randomBases(rng, n);
      long[] scalars = Fr.randomVector(rng, n);
      for (int k = 0; k < Math.min(n, 12); k++) { // edge scalars at random places: 0, 1, r - 1
        int i = rng.nextInt(n);
        switch (k % 3) {
          case 0 -> FrElement.ZERO.writeTo(scalars, i);
          case 1 -> FrElement.ONE.writeTo(scalars, i);
          default -> System.arraycopy(rMinus1, 0, scalars, i * Fr.LIMBS, Fr.LIMBS);
        }
      }
      assertThat(gpuMsm(bases, scalars)).as("G2 MSM of %d random scalars with edge ones", n).isEqualTo(cpuMsm(bases, scalars));
    }
  }

  @Test
  void identityBaseAndSkewedScalars() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("g2 skewed");
    int n = 3001;
    G2Bases random = randomBases(rng, n);
    List<G2> withIdentity = new ArrayList<>(random.toList());
    withIdentity.set(5, G2.identity());
    G2Bases bases = G2Bases.of(withIdentity);
    long[] scalars = Fr.randomVector(rng, n);
    assertThat(gpuMsm(bases, scalars)).as("an identity base").isEqualTo(cpuMsm(bases, scalars));
    long[] ones = Fr.newVector(n);
    long[] bits = Fr.newVector(n);
    long[] minus = Fr.newVector(n);
    for (int i = 0; i < n; i++) {
      Fr.setOne(ones, i);
      if (rng.nextBoolean()) {
        Fr.setOne(bits, i);
      }
      FrElement.ONE.neg().writeTo(minus, i);
    }
    assertThat(gpuMsm(bases, ones)).as("all scalars 1: one bucket holds every point").isEqualTo(cpuMsm(bases, ones));
    assertThat(gpuMsm(bases, bits)).as("0/1 scalars").isEqualTo(cpuMsm(bases, bits));
    assertThat(gpuMsm(bases, minus)).as("all scalars r - 1").isEqualTo(cpuMsm(bases, minus));
    assertThat(gpuMsm(bases, Fr.newVector(n)).isIdentity()).as("all scalars 0").isTrue();
    G2Bases twice = G2Bases.of(random.get(0), random.get(0), random.get(0));
    long[] same = Fr.newVector(3);
    for (int i = 0; i < 3; i++) {
      FrElement.of(12345).writeTo(same, i);
    }
    assertThat(gpuMsm(twice, same)).as("one point thrice: doublings in the buckets")
        .isEqualTo(random.get(0).mul(BigInteger.valueOf(3 * 12345)));
    assertThat(gpuMsm(G2Bases.of(), Fr.newVector(0)).isIdentity()).as("no points").isTrue();
  }

  @Test
  void g2MsmsFrom2To10To2To20MatchBlst() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("g2 sizes");
    G2Bases all = randomBases(rng, 1 << MAX_LOG);
    long[] scalars = Fr.randomVector(rng, 1 << MAX_LOG);
    for (int log = 10; log <= MAX_LOG; log += 2) {
      int n = log == MAX_LOG ? 1 << log : (1 << log) + 3; // odd lengths below the top
      G2Bases bases = G2Bases.of(all.toList().subList(0, n));
      long[] sc = java.util.Arrays.copyOf(scalars, n * Fr.LIMBS);
      assertThat(gpuMsm(bases, sc)).as("G2 MSM of %d points (%s)", n, MsmPlan.g2(n)).isEqualTo(cpuMsm(bases, sc));
    }
  }

  @Test
  void g2BasesRoundTripAcrossThePinnedHalves() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("g2 copies");
    int points = Staging.HALF_LONGS / G2Limbs.AFFINE_LONGS + 5; // a half and a few points more
    G2Bases distinct = randomBases(rng, 64);
    List<G2> repeated = new ArrayList<>(points);
    for (int i = 0; i < points; i++) {
      repeated.add(distinct.get(i % 64));
    }
    G2Bases bases = G2Bases.of(repeated);
    long[] limbs = new long[points * G2Limbs.AFFINE_LONGS];
    G2Limbs.affine(bases, 0, points, limbs, 0);
    int before = gpu.hostCopies().threads();
    try {
      for (int threads : new int[] {1, 3}) {
        gpu.hostCopies().threads(threads);
        DeviceBuffer buf = gpu.allocate("test", "g2_bases", limbs.length * 8L + 32, false);
        proving.writeG2Bases(buf, 32, bases);
        assertThat(proving.readScalars(buf, 1, limbs.length / Fr.LIMBS)).as("%d G2 bases, %d threads", points, threads)
            .isEqualTo(limbs);
        gpu.free(buf);
      }
    } finally {
      gpu.hostCopies().threads(before);
    }
  }

  @Test
  void aG1MsmOverG2BasesIsRefused() {
    Gpu.assumePresent();
    DeviceBuffer b = gpu.allocate("test", "g2_bases", 10 * 192L, false);
    DeviceBuffer s = gpu.allocate("test", "scalars", 10 * 32L, false);
    try {
      proving.writeG2Bases(b, 0, randomBases(rng("refused"), 10));
      assertThatThrownBy(() -> proving.msm("test", b, 0, s, 0)).hasMessageContaining("holds no G1 bases")
          .hasMessageContaining("it holds G2 bases");
      proving.writeBases(b, 0, G1Bases.of());
      assertThatThrownBy(() -> proving.g2Msm("test", b, 0, s, 0)).hasMessageContaining("holds no G2 bases");
    } finally {
      gpu.free(b);
      gpu.free(s);
    }
  }
}

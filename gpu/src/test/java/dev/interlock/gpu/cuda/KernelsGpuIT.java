package dev.interlock.gpu.cuda;

import static dev.interlock.model.design.Sizes.GIB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G1Bases;
import dev.interlock.prover.curve.G1Limbs;
import dev.interlock.prover.curve.Msm;
import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import dev.interlock.prover.field.Ntt;
import dev.interlock.workload.NttKind;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUstream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The CUDA kernels compute what the CPU implementation computes, on random inputs (the seed is printed). */
class KernelsGpuIT {
  private static final long SEED = Long.getLong("interlock.seed", System.nanoTime());
  private static final BigInteger P = new BigInteger(
      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16);
  private static CudaDevice gpu;
  private static CudaProvingKernels proving;

  @BeforeAll
  static void open() {
    if (CudaDevice.unavailable().isEmpty()) {
      gpu = CudaDevice.open(8 * GIB, new KernelScratch(20, (1 << 20) + 3, 1));
      proving = gpu.provingKernels();
      System.out.println("[interlock] KernelsGpuIT seed " + SEED + " (rerun: -Dinterlock.seed=" + SEED + "), kernels from "
          + proving.kernels().image() + " on " + gpu.name());
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

  @Test
  void copiesRoundTripAcrossTheTwoPinnedHalves() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("copies");
    int half = Staging.HALF_LONGS / Fr.LIMBS; // scalars per pinned half
    G1[] distinct = proving.fixedBaseMul(Fr.randomVector(rng, 61));
    int points = Staging.HALF_LONGS / G1Limbs.AFFINE_LONGS + 7; // a half and a few points more
    List<G1> repeated = new ArrayList<>(points);
    for (int i = 0; i < points; i++) {
      repeated.add(distinct[i % distinct.length]);
    }
    G1Bases bases = G1Bases.of(repeated);
    long[] limbs = new long[points * G1Limbs.AFFINE_LONGS];
    G1Limbs.affine(bases, 0, points, limbs, 0);
    int before = gpu.hostCopies().threads();
    try {
      for (int threads : new int[] {1, 3}) { // one thread fills each half, or three parts of it
        gpu.hostCopies().threads(threads);
        for (int n : new int[] {1, half - 1, half, half + 1, 2 * half, 3 * half + 5}) {
          DeviceBuffer buf = gpu.allocate("test", "copy", (n + 3L) * 32, false);
          long[] v = Fr.randomVector(rng, n);
          proving.writeScalars(buf, 3, v); // at an element offset
          assertThat(proving.readScalars(buf, 3, n)).as("%d scalars, %d threads", n, threads).isEqualTo(v);
          gpu.free(buf);
        }
        DeviceBuffer buf = gpu.allocate("test", "bases", limbs.length * 8L + 32, false);
        proving.writeBases(buf, 32, bases); // one scalar's bytes in
        assertThat(proving.readScalars(buf, 1, limbs.length / Fr.LIMBS)).as("%d G1 bases, %d threads", points, threads)
            .isEqualTo(limbs);
        gpu.free(buf);
      }
    } finally {
      gpu.hostCopies().threads(before);
    }
  }

  @Test
  void fieldProductsMatchTheCpu() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("field");
    int n = 4099;
    long[] a = Fr.randomVector(rng, n);
    long[] b = Fr.randomVector(rng, n);
    FrElement.ONE.neg().writeTo(a, 0); // edge values: (r-1)·(r-1), 0·x, 1·x
    FrElement.ONE.neg().writeTo(b, 0);
    Fr.setZero(a, 1);
    Fr.setOne(a, 2);
    DeviceBuffer buf = gpu.allocate("test", "fr", 3L * n * 32, false);
    proving.writeScalars(buf, 0, a);
    proving.writeScalars(buf, n, b);
    proving.writeScalars(buf, 2 * n, Fr.randomVector(rng, n)); // poison the output
    CUdeviceptr p = gpu.pointer(buf);
    CUstream s = gpu.stream();
    proving.kernels().frMul(p, p.withByteOffset(n * 32L), p.withByteOffset(2L * n * 32), n, s);
    long[] got = proving.readScalars(buf, 2 * n, n);
    long[] want = Fr.newVector(n);
    for (int i = 0; i < n; i++) {
      Fr.mul(a, i, b, i, want, i);
    }
    assertThat(got).isEqualTo(want);
    gpu.free(buf);

    // Fp: random field elements as Montgomery limbs; the product checked with BigInteger
    long[] x = new long[n * 6];
    long[] y = new long[n * 6];
    BigInteger[] xs = new BigInteger[n];
    BigInteger[] ys = new BigInteger[n];
    for (int i = 0; i < n; i++) {
      xs[i] = new BigInteger(381, new java.util.Random(rng.nextLong())).mod(P);
      ys[i] = i == 0 ? P.subtract(BigInteger.ONE) : new BigInteger(381, new java.util.Random(rng.nextLong())).mod(P);
      putFp(x, i, xs[i]);
      putFp(y, i, ys[i]);
    }
    DeviceBuffer fp = gpu.allocate("test", "fp", 3L * n * 48, false);
    CUdeviceptr q = gpu.pointer(fp);
    proving.upload(q, x, 0, x.length);
    proving.upload(q.withByteOffset(n * 48L), y, 0, y.length);
    proving.kernels().fpMul(q, q.withByteOffset(n * 48L), q.withByteOffset(2L * n * 48), n, s);
    long[] prod = new long[n * 6];
    proving.download(prod, q.withByteOffset(2L * n * 48), prod.length);
    BigInteger rInv = BigInteger.ONE.shiftLeft(384).modInverse(P);
    for (int i = 0; i < n; i++) {
      BigInteger want2 = xs[i].multiply(ys[i]).multiply(rInv).mod(P);
      assertThat(getFp(prod, i)).as("Fp product %d", i).isEqualTo(want2);
    }
    gpu.free(fp);
  }

  private static void putFp(long[] dst, int i, BigInteger v) {
    for (int k = 0; k < 6; k++) {
      dst[i * 6 + k] = v.shiftRight(64 * k).longValue();
    }
  }

  private static BigInteger getFp(long[] src, int i) {
    BigInteger v = BigInteger.ZERO;
    for (int k = 5; k >= 0; k--) {
      v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(src[i * 6 + k])));
    }
    return v;
  }

  @Test
  void nttsMatchTheCpuAtEverySizeAndKind() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("ntt");
    for (int logN : new int[] {1, 2, 5, 10, 11, 14, 17, 20}) {
      DeviceBuffer buf = gpu.allocate("test", "ntt", (1L << logN) * 32 + 64, false);
      for (NttKind kind : NttKind.values()) {
        long[] v = Fr.randomVector(rng, 1 << logN);
        proving.writeScalars(buf, 1, v); // at an element offset, as ProvingWorkload's b and c vectors are
        proving.ntt("test", buf, 1, logN, kind).await();
        long[] got = proving.readScalars(buf, 1, 1 << logN);
        switch (kind) {
          case FORWARD -> Ntt.forward(v, logN);
          case INVERSE -> Ntt.inverse(v, logN);
          case COSET_FORWARD -> Ntt.cosetForward(v, logN);
          case COSET_INVERSE -> Ntt.cosetInverse(v, logN);
        }
        assertThat(got).as("%s NTT of 2^%d", kind, logN).isEqualTo(v);
      }
      gpu.free(buf);
    }
  }

  @Test
  void quotientMatchesTheCpu() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("quotient");
    for (int logN : new int[] {1, 4, 11, 16}) {
      int n = 1 << logN;
      long[] abc = Fr.randomVector(rng, 3 * n);
      DeviceBuffer staged = gpu.allocate("test", "abc", (3L * n + 2) * 32, false);
      DeviceBuffer h = gpu.allocate("test", "h", n * 32L, false);
      proving.writeScalars(staged, 2, abc);
      proving.writeScalars(h, 0, Fr.randomVector(rng, n)); // poison
      proving.quotient("test", staged, 2, logN, h).await();
      long[] a = java.util.Arrays.copyOfRange(abc, 0, 4 * n);
      long[] b = java.util.Arrays.copyOfRange(abc, 4 * n, 8 * n);
      long[] c = java.util.Arrays.copyOfRange(abc, 8 * n, 12 * n);
      assertThat(proving.readScalars(h, 0, n)).as("quotient at 2^%d", logN)
          .isEqualTo(dev.interlock.prover.Prover.quotient(a, b, c, logN));
      gpu.free(staged);
      gpu.free(h);
    }
  }

  /** Random points: multiples of the generator by random scalars, then a progression for speed. */
  /** n random scalars with the edge values 0, 1 and r - 1 at up to 12 random places. */
  private static long[] scalarsWithEdges(SplittableRandom rng, int n) {
    long[] rMinus1 = Fr.newVector(1);
    FrElement.ONE.neg().writeTo(rMinus1, 0);
    long[] scalars = Fr.randomVector(rng, n);
    for (int k = 0; k < Math.min(n, 12); k++) {
      int i = rng.nextInt(n);
      switch (k % 3) {
        case 0 -> Fr.setZero(scalars, i);
        case 1 -> Fr.setOne(scalars, i);
        default -> System.arraycopy(rMinus1, 0, scalars, i * 4, 4);
      }
    }
    return scalars;
  }

  /** The bases with base 5 replaced by the identity, where there are more than 5. */
  private static G1Bases withIdentityAt5(G1Bases bases) {
    if (bases.size() <= 5) {
      return bases;
    }
    List<G1> withIdentity = new ArrayList<>(bases.toList());
    withIdentity.set(5, G1.identity());
    return G1Bases.of(withIdentity);
  }

  private static G1Bases randomBases(SplittableRandom rng, int n) {
    G1 step = G1.generator().mul(BigInteger.valueOf(rng.nextLong(1, Long.MAX_VALUE)));
    int distinct = Math.min(n, 512);
    G1[] seeds = IntStream.range(0, distinct).parallel()
        .mapToObj(i -> G1.generator().mul(new BigInteger(250, new java.util.Random(rng.split().nextLong()))))
        .toArray(G1[]::new);
    G1[] pts = new G1[n];
    for (int i = 0; i < n; i++) {
      pts[i] = i < distinct ? seeds[i] : pts[i - distinct].add(step);
    }
    return G1Bases.of(pts);
  }

  private static G1 gpuMsm(G1Bases bases, long[] scalars) {
    int n = bases.size();
    DeviceBuffer b = gpu.allocate("test", "bases", Math.max(1, n * 96L), false);
    DeviceBuffer s = gpu.allocate("test", "scalars", Math.max(1, n * 32L), false);
    try {
      proving.writeBases(b, 0, bases);
      proving.writeScalars(s, 0, scalars);
      return proving.msm("test", b, 0, s, 0).result();
    } finally {
      gpu.free(b);
      gpu.free(s);
    }
  }

  /** The MSM with a table of up to {@code copies} copies of the bases, built for them on the device first. */
  private static G1 gpuMsm(G1Bases bases, long[] scalars, int copies) {
    int n = bases.size();
    DeviceBuffer b = gpu.allocate("test", "bases", Math.max(1, n * 96L), false);
    DeviceBuffer s = gpu.allocate("test", "scalars", Math.max(1, n * 32L), false);
    DeviceBuffer t = gpu.allocate("test", "table", Math.max(1, CudaProvingKernels.msmTableBytes(n, copies)), false);
    try {
      proving.writeBases(b, 0, bases);
      proving.writeScalars(s, 0, scalars);
      proving.msmTable("test", b, 0, t, copies).await();
      return proving.msm("test", b, 0, s, 0, t).result();
    } finally {
      gpu.free(b);
      gpu.free(s);
      gpu.free(t);
    }
  }

  private static G1 cpuMsm(G1Bases bases, long[] mont) {
    return Msm.msm(bases, Fr.toCanonical(mont, 0, bases.size()));
  }

  @Test
  void msmsMatchTheCpuIncludingEdgeScalarsAndOddSizes() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("msm");
    for (int n : new int[] {1, 2, 3, 7, 100, 1000, 4097, 65_537}) {
      G1Bases bases = randomBases(rng, n);
      long[] scalars = scalarsWithEdges(rng, n);
      assertThat(gpuMsm(bases, scalars)).as("MSM of %d random scalars", n).isEqualTo(cpuMsm(bases, scalars));
    }
    // skewed and degenerate: every scalar 1 (one bucket holds all points), all r - 1, all 0, identity bases
    long[] rMinus1 = Fr.newVector(1);
    FrElement.ONE.neg().writeTo(rMinus1, 0);
    G1Bases bases = randomBases(rng, 3000);
    long[] ones = Fr.newVector(3000);
    long[] minus = Fr.newVector(3000);
    for (int i = 0; i < 3000; i++) {
      Fr.setOne(ones, i);
      System.arraycopy(rMinus1, 0, minus, i * 4, 4);
    }
    assertThat(gpuMsm(bases, ones)).isEqualTo(cpuMsm(bases, ones));
    assertThat(gpuMsm(bases, minus)).isEqualTo(cpuMsm(bases, minus));
    assertThat(gpuMsm(bases, Fr.newVector(3000)).isIdentity()).isTrue();
    List<G1> withIdentity = new ArrayList<>(bases.toList());
    withIdentity.set(5, G1.identity());
    G1Bases b2 = G1Bases.of(withIdentity);
    long[] sc = Fr.randomVector(rng, 3000);
    assertThat(gpuMsm(b2, sc)).isEqualTo(cpuMsm(b2, sc));
    // the same base twice with the same digit: the doubling case inside a bucket
    G1Bases twice = G1Bases.of(bases.get(0), bases.get(0), bases.get(0));
    long[] same = Fr.newVector(3);
    for (int i = 0; i < 3; i++) {
      FrElement.of(12345).writeTo(same, i);
    }
    assertThat(gpuMsm(twice, same)).isEqualTo(bases.get(0).mul(BigInteger.valueOf(3 * 12345)));
  }

  @Test
  void skewedScalarsAreSummedCorrectly() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("skewed");
    int n = 1 << 17;
    G1Bases bases = randomBases(rng, n);
    long[] bits = Fr.newVector(n);
    long[] ones = Fr.newVector(n);
    for (int i = 0; i < n; i++) {
      if (rng.nextBoolean()) {
        Fr.setOne(bits, i);
      }
      Fr.setOne(ones, i);
    }
    assertThat(gpuMsm(bases, bits)).as("0/1 scalars").isEqualTo(cpuMsm(bases, bits));
    assertThat(gpuMsm(bases, ones)).as("all scalars 1: one bucket holds every point").isEqualTo(cpuMsm(bases, ones));
  }

  @Test
  void msmsWithAPrecomputedTableMatchTheCpu() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("table");
    for (int n : new int[] {1, 2, 3, 7, 100, 1000, 4097, 65_537}) {
      G1Bases bases = randomBases(rng, n);
      long[] scalars = scalarsWithEdges(rng, n);
      bases = withIdentityAt5(bases);
      G1 want = cpuMsm(bases, scalars);
      for (int copies : new int[] {MsmPlan.MAX_COPIES, 4, 2}) {
        assertThat(gpuMsm(bases, scalars, copies)).as("MSM of %d scalars, table of up to %d copies (%s)", n, copies,
            MsmPlan.withTable(n, copies)).isEqualTo(want);
      }
    }
    int n = 1 << 17; // skewed: one bucket set holds every window's digits
    G1Bases bases = randomBases(rng, n);
    long[] bits = Fr.newVector(n);
    long[] ones = Fr.newVector(n);
    for (int i = 0; i < n; i++) {
      if (rng.nextBoolean()) {
        Fr.setOne(bits, i);
      }
      Fr.setOne(ones, i);
    }
    assertThat(gpuMsm(bases, bits, MsmPlan.MAX_COPIES)).as("0/1 scalars, table").isEqualTo(cpuMsm(bases, bits));
    assertThat(gpuMsm(bases, ones, MsmPlan.MAX_COPIES)).as("all scalars 1, table").isEqualTo(cpuMsm(bases, ones));
    G1Bases twice = G1Bases.of(bases.get(0), bases.get(0), bases.get(0));
    long[] same = Fr.newVector(3);
    for (int i = 0; i < 3; i++) {
      FrElement.of(12345).writeTo(same, i);
    }
    assertThat(gpuMsm(twice, same, MsmPlan.MAX_COPIES)).isEqualTo(bases.get(0).mul(BigInteger.valueOf(3 * 12345)));
  }

  @Test
  void aTableIsForgottenWhenItsBasesAreRewritten() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("stale");
    G1Bases bases = randomBases(rng, 100);
    DeviceBuffer b = gpu.allocate("test", "bases", 100 * 96L, false);
    DeviceBuffer s = gpu.allocate("test", "scalars", 100 * 32L, false);
    DeviceBuffer t = gpu.allocate("test", "table", CudaProvingKernels.msmTableBytes(100, 8), false);
    try {
      proving.writeBases(b, 0, bases);
      proving.writeScalars(s, 0, Fr.randomVector(rng, 100));
      proving.msmTable("test", b, 0, t, 8).await();
      proving.writeBases(b, 0, randomBases(rng, 100));
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> proving.msm("test", b, 0, s, 0, t).result())
          .hasMessageContaining("holds no MSM table");
    } finally {
      gpu.free(b);
      gpu.free(s);
      gpu.free(t);
    }
  }

  /** Two base sets and their tables in one buffer, each at its byte offset: each MSM matches the CPU; rewriting one set forgets only its table. */
  @Test
  void tablesAtOffsetsOfOneBufferServeTheirOwnBases() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("offsets");
    int n = 1000;
    int copies = 8;
    G1Bases first = randomBases(rng, n);
    G1Bases second = randomBases(rng, n);
    long setBytes = n * 96L + CudaProvingKernels.msmTableBytes(n, copies);
    DeviceBuffer t = gpu.allocate("test", "msm_tables", 2 * setBytes, false);
    DeviceBuffer s = gpu.allocate("test", "scalars", n * 32L, false);
    try {
      long[] scalars = Fr.randomVector(rng, n);
      proving.writeScalars(s, 0, scalars);
      proving.writeBases(t, 0, first);
      proving.writeBases(t, setBytes, second);
      proving.msmTable("test", t, 0, t, n * 96L, copies).await();
      proving.msmTable("test", t, setBytes, t, setBytes + n * 96L, copies).await();
      assertThat(proving.msm("test", t, 0, s, 0, t, n * 96L).result()).isEqualTo(cpuMsm(first, scalars));
      assertThat(proving.msm("test", t, setBytes, s, 0, t, setBytes + n * 96L).result()).isEqualTo(cpuMsm(second, scalars));
      proving.writeBases(t, 0, second);
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> proving.msm("test", t, 0, s, 0, t, n * 96L).result())
          .hasMessageContaining("holds no MSM table");
      assertThat(proving.msm("test", t, setBytes, s, 0, t, setBytes + n * 96L).result()).isEqualTo(cpuMsm(second, scalars));
    } finally {
      gpu.free(t);
      gpu.free(s);
    }
  }

  @Test
  void largeMsmWithATableMatchesTheCpu() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("large table");
    int n = (1 << 20) + 3;
    G1Bases bases = randomBases(rng, n);
    long[] scalars = Fr.randomVector(rng, n);
    G1 want = cpuMsm(bases, scalars);
    assertThat(gpuMsm(bases, scalars)).isEqualTo(want);
    assertThat(gpuMsm(bases, scalars, MsmPlan.MAX_COPIES)).isEqualTo(want);
  }

  @Test
  void largeMsmMatchesTheCpu() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("large");
    int n = 1 << 20;
    G1Bases bases = randomBases(rng, n);
    long[] scalars = Fr.randomVector(rng, n);
    assertThat(gpuMsm(bases, scalars)).isEqualTo(cpuMsm(bases, scalars));
  }

  /**
   * The MSM by the kernels directly with the plan's widths for n points (a table of up to {@code copies} copies when
   * more than 1) and accumulation {@code a}, in scratch and table buffers of its own (the device's arenas are sized for
   * the default accumulation only).
   */
  private static G1 variantMsm(G1Bases bases, long[] scalars, int copies, MsmPlan.Accumulation a) {
    int n = bases.size();
    MsmPlan p = (copies == 1 ? MsmPlan.of(n) : MsmPlan.withTable(n, copies)).with(a);
    DeviceBuffer b = gpu.allocate("test", "bases", Math.max(1, n * 96L), false);
    DeviceBuffer s = gpu.allocate("test", "scalars", Math.max(1, n * 32L), false);
    DeviceBuffer t = gpu.allocate("test", "table", Math.max(1, p.tableBytes()), false);
    DeviceBuffer scratch = gpu.allocate("test", "variant_scratch", p.scratchBytes(), false);
    try {
      proving.writeBases(b, 0, bases);
      proving.writeScalars(s, 0, scalars);
      CUstream st = gpu.stream();
      proving.kernels().msmTable(gpu.pointer(b), p, gpu.pointer(t), st);
      proving.kernels().msm(gpu.pointer(b), gpu.pointer(t), gpu.pointer(s), p, gpu.pointer(scratch), st);
      CudaDevice.check(jcuda.driver.JCudaDriver.cuStreamSynchronize(st), "cuStreamSynchronize");
      long[] sums = new long[p.windowSumPoints() * G1Limbs.JACOBIAN_LONGS];
      proving.download(sums, gpu.pointer(scratch).withByteOffset(p.windowSumsAt()), sums.length);
      return Kernels.msmResult(p, sums);
    } finally {
      gpu.free(b);
      gpu.free(s);
      gpu.free(t);
      gpu.free(scratch);
    }
  }

  private static final MsmPlan.Accumulation[] VARIANTS = MsmPlan.Accumulation.values();

  @Test
  void everyAccumulationVariantMatchesTheCpuOnRandomAndEdgeInputs() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("variants");
    for (int n : new int[] {1, 2, 3, 4, 7, 100, 1000, 4097, 65_537}) {
      G1Bases bases = randomBases(rng, n);
      long[] scalars = scalarsWithEdges(rng, n);
      bases = withIdentityAt5(bases);
      G1 want = cpuMsm(bases, scalars);
      for (MsmPlan.Accumulation a : VARIANTS) {
        for (int copies : new int[] {1, MsmPlan.MAX_COPIES}) {
          assertThat(variantMsm(bases, scalars, copies, a)).as("%s MSM of %d scalars, %d copies", a, n, copies)
              .isEqualTo(want);
        }
      }
    }
    // skewed: every scalar 1 (one bucket), 0/1, all 0; repeated bases, some negated (doublings and P + (-P) in a bucket)
    int n = 3000;
    G1Bases bases = randomBases(rng, n);
    long[] ones = Fr.newVector(n);
    long[] bits = Fr.newVector(n);
    for (int i = 0; i < n; i++) {
      Fr.setOne(ones, i);
      if (rng.nextBoolean()) {
        Fr.setOne(bits, i);
      }
    }
    List<G1> repeated = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      G1 p = i % 5 == 4 ? G1.identity() : bases.get(i % 5);
      repeated.add(i % 7 == 3 ? p.neg() : p);
    }
    G1Bases rep = G1Bases.of(repeated);
    long[] few = Fr.newVector(n);
    for (int i = 0; i < n; i++) {
      FrElement.of(1 + rng.nextInt(3)).writeTo(few, i);
    }
    for (MsmPlan.Accumulation a : VARIANTS) {
      for (int copies : new int[] {1, MsmPlan.MAX_COPIES}) {
        assertThat(variantMsm(bases, ones, copies, a)).as("%s all 1, %d copies", a, copies).isEqualTo(cpuMsm(bases, ones));
        assertThat(variantMsm(bases, bits, copies, a)).as("%s 0/1, %d copies", a, copies).isEqualTo(cpuMsm(bases, bits));
        assertThat(variantMsm(bases, Fr.newVector(n), copies, a).isIdentity()).as("%s all 0", a).isTrue();
        assertThat(variantMsm(rep, few, copies, a)).as("%s repeated bases, %d copies", a, copies).isEqualTo(cpuMsm(rep, few));
        assertThat(variantMsm(rep, ones, copies, a)).as("%s repeated bases, all 1", a).isEqualTo(cpuMsm(rep, ones));
      }
    }
  }

  @Test
  void largeMsmsMatchTheCpuInEveryAccumulationVariant() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("large variants");
    int n = (1 << 20) + 3; // 16 or 13 windows: two slices of the pair passes
    G1Bases bases = randomBases(rng, n);
    long[] scalars = Fr.randomVector(rng, n);
    G1 want = cpuMsm(bases, scalars);
    for (MsmPlan.Accumulation a : VARIANTS) {
      assertThat(variantMsm(bases, scalars, 1, a)).as("%s at 2^20 + 3", a).isEqualTo(want);
      assertThat(variantMsm(bases, scalars, MsmPlan.MAX_COPIES, a)).as("%s with a table at 2^20 + 3", a).isEqualTo(want);
    }
  }

  @Test
  void dedicatedFpSquaringMatchesTheCpu() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("sqr");
    int n = 4099;
    long[] x = new long[n * 6];
    BigInteger[] xs = new BigInteger[n];
    for (int i = 0; i < n; i++) {
      xs[i] = switch (i) {
        case 0 -> BigInteger.ZERO;
        case 1 -> BigInteger.ONE;
        case 2 -> P.subtract(BigInteger.ONE);
        default -> new BigInteger(381, new java.util.Random(rng.nextLong())).mod(P);
      };
      putFp(x, i, xs[i]);
    }
    DeviceBuffer fp = gpu.allocate("test", "fp", 2L * n * 48, false);
    CUdeviceptr q = gpu.pointer(fp);
    proving.upload(q, x, 0, x.length);
    proving.kernels().fpSqr(q, q.withByteOffset(n * 48L), n, gpu.stream());
    long[] sq = new long[n * 6];
    proving.download(sq, q.withByteOffset(n * 48L), sq.length);
    BigInteger rInv = BigInteger.ONE.shiftLeft(384).modInverse(P);
    for (int i = 0; i < n; i++) {
      assertThat(getFp(sq, i)).as("Fp square %d", i).isEqualTo(xs[i].multiply(xs[i]).multiply(rInv).mod(P));
    }
    gpu.free(fp);
  }

  @Test
  void fixedBaseMultiplicationMatchesTheCpu() {
    Gpu.assumePresent();
    SplittableRandom rng = rng("fixed");
    int n = 2000;
    long[] scalars = Fr.randomVector(rng, n);
    Fr.setZero(scalars, 0);
    Fr.setOne(scalars, 1);
    FrElement.ONE.neg().writeTo(scalars, 2);
    G1[] got = proving.fixedBaseMul(scalars);
    for (int i = 0; i < n; i++) {
      assertThat(got[i]).as("scalar %d", i).isEqualTo(G1.generator().mul(Fr.toBigInteger(scalars, i)));
    }
    assertThat(G1Limbs.affine(got[0])).containsOnly(0L);
  }
}

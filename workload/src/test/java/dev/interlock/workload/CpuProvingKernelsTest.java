package dev.interlock.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.device.BufferNotLiveException;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G1Bases;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.curve.G2Bases;
import dev.interlock.prover.curve.Msm;
import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.Ntt;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The CPU proving kernels on a simulated device compute what the prover's CPU code computes, on what the host copied in. */
class CpuProvingKernelsTest {
  private static final long SEED = Long.getLong("interlock.seed", 17);
  private final SimulatedDevice device = new SimulatedDevice(1L << 30);
  private final CpuProvingKernels kernels = new CpuProvingKernels(device);

  @Test
  void everyNttKindMatchesTheCpuTransformAtAnOffset() {
    System.out.println("[interlock] SimulatedDeviceKernelsTest seed=" + SEED);
    SplittableRandom rng = new SplittableRandom(SEED);
    int logN = 6;
    int n = 1 << logN;
    DeviceBuffer buf = device.allocate("w#0", "data", (3L * n) * ProvingKernels.SCALAR_BYTES, false);
    for (NttKind kind : NttKind.values()) {
      long[] v = Fr.newVector(n);
      for (int i = 0; i < n; i++) {
        Fr.random(rng, v, i);
      }
      long[] expected = v.clone();
      switch (kind) {
        case FORWARD -> Ntt.forward(expected, logN);
        case INVERSE -> Ntt.inverse(expected, logN);
        case COSET_FORWARD -> Ntt.cosetForward(expected, logN);
        default -> Ntt.cosetInverse(expected, logN);
      }
      kernels.writeScalars(buf, n, v);
      KernelRun run = kernels.ntt("w#0", buf, n, logN, kind);
      assertThat(device.trySynchronize()).isFalse();
      run.await();
      assertThat(kernels.readScalars(buf, n, n)).as(kind.name()).isEqualTo(expected);
      assertThat(kernels.readScalars(buf, 0, n)).as("elements before the offset untouched").isEqualTo(new long[4 * n]);
    }
  }

  @Test
  void g2MsmOverCopiedBasesMatchesBlstAndG1BasesAreNotG2Bases() {
    SplittableRandom rng = new SplittableRandom(SEED);
    int n = 37;
    List<G2> pts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      pts.add(G2.generator().mul(BigInteger.valueOf(rng.nextLong(1, Long.MAX_VALUE))));
    }
    G2Bases bases = G2Bases.of(pts);
    long[] scalars = Fr.randomVector(rng, n);
    DeviceBuffer b = device.allocate("w#0", "g2", 64 + n * ProvingKernels.G2_AFFINE_BYTES, false);
    DeviceBuffer s = device.allocate("w#0", "scalars", (n + 2) * ProvingKernels.SCALAR_BYTES, false);
    kernels.writeG2Bases(b, 64, bases);
    kernels.writeScalars(s, 2, scalars);
    assertThat(kernels.g2Msm("w#0", b, 64, s, 2).result()).isEqualTo(Msm.msm(bases, Fr.toCanonical(scalars, 0, n)));
    assertThatThrownBy(() -> kernels.writeG2Bases(b, 128, bases)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("G2 bases");
    assertThatThrownBy(() -> kernels.msm("w#0", b, 64, s, 2).result()).hasMessageContaining("holds no G1 bases");
    kernels.writeBases(b, 64, G1Bases.of(G1.generator()));
    assertThatThrownBy(() -> kernels.g2Msm("w#0", b, 64, s, 2).result()).hasMessageContaining("holds no G2 bases");
    device.free(b);
    assertThatThrownBy(() -> kernels.writeG2Bases(b, 0, bases)).isInstanceOf(BufferNotLiveException.class);
  }

  /** Two base sets and their tables in one buffer: each MSM with its table is the plain MSM; a rewritten set forgets only its own. */
  @Test
  void msmWithATableAtAnOffsetMatchesThePlainMsmAndRewrittenBasesForgetOnlyTheirTable() {
    SplittableRandom rng = new SplittableRandom(SEED);
    int n = 20;
    List<G1> pts = new ArrayList<>();
    for (int i = 0; i < 2 * n; i++) {
      pts.add(G1.generator().mul(BigInteger.valueOf(rng.nextLong(1, Long.MAX_VALUE))));
    }
    G1Bases first = G1Bases.of(pts.subList(0, n));
    G1Bases second = G1Bases.of(pts.subList(n, 2 * n));
    int copies = 4;
    long setBytes = n * ProvingKernels.G1_AFFINE_BYTES + kernels.tableBytes(n, copies);
    assertThat(kernels.tableBytes(n, copies)).isEqualTo(3L * n * 96);
    DeviceBuffer t = device.allocate("w#0", "msm_tables", 2 * setBytes, false);
    DeviceBuffer s = device.allocate("w#0", "scalars", n * ProvingKernels.SCALAR_BYTES, false);
    long[] scalars = Fr.randomVector(rng, n);
    kernels.writeScalars(s, 0, scalars);
    kernels.writeBases(t, 0, first);
    kernels.writeBases(t, setBytes, second);
    assertThatThrownBy(() -> kernels.msm("w#0", t, 0, s, 0, t, n * 96L).result()).hasMessageContaining("holds no MSM table");
    kernels.msmTable("w#0", t, 0, t, n * 96L, copies).await();
    kernels.msmTable("w#0", t, setBytes, t, setBytes + n * 96L, copies).await();
    long[] canonical = Fr.toCanonical(scalars, 0, n);
    assertThat(kernels.msm("w#0", t, 0, s, 0, t, n * 96L).result()).isEqualTo(Msm.msm(first, canonical));
    assertThat(kernels.msm("w#0", t, setBytes, s, 0, t, setBytes + n * 96L).result()).isEqualTo(Msm.msm(second, canonical));
    assertThatThrownBy(() -> kernels.msm("w#0", t, 0, s, 0, t, setBytes + n * 96L).result()).as("the other set's table")
        .hasMessageContaining("holds no MSM table");
    assertThatThrownBy(() -> kernels.msmTable("w#0", t, setBytes, t, setBytes + n * 96L + 1, copies).await())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has " + 2 * setBytes);
    kernels.writeBases(t, 0, second);
    assertThatThrownBy(() -> kernels.msm("w#0", t, 0, s, 0, t, n * 96L).result()).hasMessageContaining("holds no MSM table");
    assertThat(kernels.msm("w#0", t, setBytes, s, 0, t, setBytes + n * 96L).result()).isEqualTo(Msm.msm(second, canonical));
  }

  @Test
  void quotientKernelGivesTheProversH() {
    SplittableRandom rng = new SplittableRandom(SEED);
    dev.interlock.prover.Circuit circuit = dev.interlock.prover.Circuit.synthetic(6, 2, 3);
    dev.interlock.prover.Witness w = circuit.witness(rng);
    dev.interlock.prover.Synthesized syn = dev.interlock.prover.Prover.synthesize(circuit, w);
    int n = circuit.size();
    DeviceBuffer abc = device.allocate("w#0", "abc", 3L * n * ProvingKernels.SCALAR_BYTES, false);
    DeviceBuffer h = device.allocate("w#0", "h", n * ProvingKernels.SCALAR_BYTES, false);
    kernels.writeScalars(abc, 0, syn.a());
    kernels.writeScalars(abc, n, syn.b());
    kernels.writeScalars(abc, 2 * n, syn.c());
    kernels.quotient("w#0", abc, 0, 6, h).await();
    long[] want = dev.interlock.prover.Prover.computeH(syn);
    long[] got = kernels.readScalars(h, 0, n);
    assertThat(Arrays.copyOf(got, 4 * (n - 1))).isEqualTo(want);
    assertThat(Fr.isZero(got, n - 1)).as("top coefficient of H").isTrue();
  }

  @Test
  void msmKernelMatchesTheCpuMsmOverMontgomeryScalars() {
    SplittableRandom rng = new SplittableRandom(SEED + 1);
    int count = 37;
    List<G1> points = new ArrayList<>();
    long[] mont = Fr.newVector(count);
    long[] canonical = new long[4 * count];
    for (int i = 0; i < count; i++) {
      points.add(G1.generator().mul(BigInteger.valueOf(rng.nextLong(1, Long.MAX_VALUE))));
      Fr.random(rng, mont, i);
      Fr.toCanonicalLimbs(mont, i, canonical, 4 * i);
    }
    G1Bases bases = G1Bases.of(points);
    DeviceBuffer b = device.allocate("w#0", "bases", 1000L + count * ProvingKernels.G1_AFFINE_BYTES, false);
    DeviceBuffer s = device.allocate("w#0", "scalars", (5L + count) * ProvingKernels.SCALAR_BYTES, false);
    kernels.writeBases(b, 1000, bases);
    kernels.writeScalars(s, 5, mont);
    assertThat(kernels.msm("w#0", b, 1000, s, 5).result()).isEqualTo(Msm.msm(bases, canonical));
  }

  @Test
  void copiesAndKernelsCheckBoundsAndLiveness() {
    DeviceBuffer small = device.allocate("w#0", "small", 2 * ProvingKernels.SCALAR_BYTES, false);
    assertThatThrownBy(() -> kernels.writeScalars(small, 1, Fr.newVector(2))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("do not fit");
    device.free(small);
    assertThatThrownBy(() -> kernels.ntt("w#0", small, 0, 1, NttKind.FORWARD)).isInstanceOf(BufferNotLiveException.class)
        .satisfies(e -> assertThat(((BufferNotLiveException) e).kind()).isEqualTo(ViolationKind.USE_AFTER_FREE));
    assertThatThrownBy(() -> kernels.readScalars(small, 0, 1)).isInstanceOf(BufferNotLiveException.class);
    assertThat(Arrays.stream(new long[] {device.memory().live()})).containsExactly(0L);
  }
}

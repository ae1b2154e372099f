package dev.interlock.gpu.cuda;

import static dev.interlock.model.design.Sizes.GIB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.Overlaps;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.prover.Circuit;
import dev.interlock.prover.Keys;
import dev.interlock.prover.PartitionSizes;
import dev.interlock.prover.Proof;
import dev.interlock.prover.Setup;
import dev.interlock.prover.Verifier;
import dev.interlock.prover.WitnessShape;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.workload.ProvingWorkload;
import dev.interlock.impl.pipeline.Workload;
import dev.interlock.impl.sync.JitterGate;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Sizes;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Groth16 proofs made with the CUDA kernels on real VRAM verify, under single-lock and reservation, with 3 workers and
 * random timing jitter. The budget (default 256 MiB, -Dinterlock.gpu.proveBudget=BYTES) picks n: the largest power of
 * two whose partition (staged + scratch, PartitionSizes) fits it; the CPU stages (synthesis, the G2 MSM) bound how
 * large a budget a test run can afford.
 */
class ProvingGpuIT {
  private static final long SEED = Long.getLong("interlock.seed", System.nanoTime());
  private static final long BUDGET = Long.getLong("interlock.gpu.proveBudget", 256 * Sizes.MIB);

  private static int largestLogN(long budget) {
    int best = -1;
    for (int logN = 4; logN <= 22; logN++) { // Circuit.Params' range
      if (PartitionSizes.of(new Circuit.Params(logN, 2, 1)).totalBytes() <= budget) {
        best = logN;
      }
    }
    return best;
  }

  private record Outcome(RunReport report, int verified) {}

  private static Outcome prove(Design d, long budget, Circuit circuit, Keys keys, long seed) {
    return prove(d, budget, circuit, keys, seed, 10, false);
  }

  /**
   * Proves a request of {@code count} partitions; with {@code reuseHostWork} they share their inputs, so synthesis and
   * the G2 MSM run once, before the run, and the GPU section bounds throughput, and no jitter is added (the run is timed).
   */
  private static Outcome prove(Design d, long budget, Circuit circuit, Keys keys, long seed, int count, boolean reuseHostWork) {
    return prove(d, budget, circuit, keys, seed, count, reuseHostWork, ProvingWorkload.BG2.CPU);
  }

  /** As above, with b_g2_msm where {@code bG2} puts it (on the GPU: the design's kernel b_g2_msm step). */
  private static Outcome prove(Design d, long budget, Circuit circuit, Keys keys, long seed, int count, boolean reuseHostWork,
      ProvingWorkload.BG2 bG2) {
    return prove(d, budget, circuit, keys, seed, count, reuseHostWork, new ProvingWorkload(circuit, keys.pk(),
        dev -> ((CudaDevice) dev).provingKernels(), seed, reuseHostWork, bG2));
  }

  /** As above, with the workload given (e.g. one with MSM tables). */
  private static Outcome prove(Design d, long budget, Circuit circuit, Keys keys, long seed, int count, boolean reuseHostWork,
      ProvingWorkload workload) {
    int threads = d.roles().get(0).threads();
    KernelScratch scratch = new KernelScratch(circuit.logN(), Math.max(circuit.size(), circuit.numVariables()), threads);
    SplittableRandom rng = new SplittableRandom(seed);
    ProvingWorkload.Partition shared = reuseHostWork ? ProvingWorkload.Partition.random(0, circuit, rng.split()) : null;
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      parts.add(shared != null ? new ProvingWorkload.Partition(i, shared.publicInputs(), shared.privateSeeds())
          : ProvingWorkload.Partition.random(i, circuit, rng.split()));
    }
    if (reuseHostWork) {
      workload.prepare(shared); // before the clock, as prove --reuse-host-work does
    }
    try (CudaDevice gpu = CudaDevice.open(budget, scratch)) {
      String role = d.roles().get(0).name();
      RunReport r = new Engine(gpu, reuseHostWork ? StepGate.FREE : new JitterGate(seed, 500)).start(d, d.name(),
          role0 -> new InterpretedPipeline(role0, false, role0.name().equals(role) ? workload : Workload.NONE), Map.of(role, parts)).await();
      int verified = 0;
      for (JobResult j : r.results()) {
        if (!(j instanceof JobResult.Completed)) {
          System.out.println("[interlock]   job " + j.job().id() + " did not complete: " + j);
        }
        if (j instanceof JobResult.Completed c && c.value() instanceof Proof p
            && Verifier.verify(keys.vk(), p, ((ProvingWorkload.Partition) j.job().payload()).publicInputs())) {
          verified++;
        }
      }
      System.out.printf("[interlock] %s on %s, budget %s, n=2^%d%s: %d/%d verified, peak %s, %.2f s (%.1f proofs/min), stages %s%n",
          d.name(), gpu.name(), Sizes.format(budget), circuit.logN(), reuseHostWork ? ", host work reused" : "", verified, count,
          Sizes.format(r.memory().peakUsed()), r.seconds(), count / r.seconds() * 60, workload.stageMillis().keySet());
      return new Outcome(r, verified);
    }
  }

  /**
   * The n of a test that needs no large circuit (2^16, or less where the budget fits less), after skipping without a
   * GPU; prints the seed, so that a failure can be rerun.
   */
  private static int smallLogN(String what) {
    Gpu.assumePresent();
    int logN = Math.min(16, largestLogN(BUDGET));
    System.out.println("[interlock] ProvingGpuIT (" + what + ") seed " + SEED + " (rerun: -Dinterlock.seed=" + SEED
        + "), n = 2^" + logN);
    return logN;
  }

  private static Keys keys(Circuit circuit) {
    try (CudaDevice gpu = CudaDevice.open(GIB)) {
      long t = System.nanoTime();
      Keys k = Setup.generate(circuit, new SplittableRandom(1), gpu.provingKernels().fixedBase());
      System.out.printf("[interlock] setup n=2^%d with GPU fixed-base: %.1f s%n", circuit.logN(), (System.nanoTime() - t) / 1e9);
      return k;
    }
  }

  @Test
  void singleLockProvesTenPartitionsAtTheLargestNThatFitsTheBudget() {
    Gpu.assumePresent();
    int logN = largestLogN(BUDGET);
    System.out.println("[interlock] ProvingGpuIT seed " + SEED + " (rerun: -Dinterlock.seed=" + SEED + "), budget "
        + Sizes.format(BUDGET) + " -> n = 2^" + logN);
    Circuit circuit = Circuit.synthetic(logN, 2, 1);
    Keys keys = keys(circuit);
    Design d = TestDesigns.shipped("single-lock").withThreads("gpu_worker", 3);
    for (int run = 0; run < 2; run++) {
      Outcome o = prove(d, BUDGET, circuit, keys, SEED + run);
      assertThat(o.verified()).as("verified proofs, run %d", run).isEqualTo(10);
      assertThat(o.report().memory().peakUsed()).isLessThanOrEqualTo(BUDGET);
    }
  }

  @Test
  void bG2OnTheGpuProvesUnderTheDesignWithAKernelStep() {
    int logN = smallLogN("b_g2_msm on the GPU");
    Circuit circuit = Circuit.synthetic(logN, 2, 1);
    Keys keys = keys(circuit);
    Design d = TestDesigns.shipped("single-lock-g2-gpu").withThreads("gpu_worker", 3);
    Outcome o = prove(d, BUDGET, circuit, keys, SEED, 6, false, ProvingWorkload.BG2.GPU);
    assertThat(o.verified()).isEqualTo(6);
    assertThat(o.report().memory().peakUsed()).isLessThanOrEqualTo(BUDGET);
  }

  /**
   * b_g2_msm split as cuzk splits it: the ones' sum by the CUDA G2 MSM over the 0/1 mask at kernel b_g2_ones, the tail
   * on the host; with a filecoin witness (many ones) and a field witness (almost all full-width), every proof verifies.
   */
  @Test
  void splitBG2ProvesUnderTheSplitDesignWithFilecoinAndFieldWitnesses() {
    int logN = smallLogN("b_g2_msm split");
    Design d = TestDesigns.shipped("single-lock-g2-split").withThreads("gpu_worker", 3);
    for (WitnessShape shape : List.of(WitnessShape.filecoin(WitnessShape.DEFAULT_FILECOIN_FULL_PPM), WitnessShape.FIELD)) {
      Circuit circuit = Circuit.synthetic(new Circuit.Params(logN, 2, 1, shape));
      Keys keys = keys(circuit);
      Outcome o = prove(d, BUDGET, circuit, keys, SEED, 6, false, ProvingWorkload.BG2.SPLIT);
      assertThat(o.verified()).as("%s", shape).isEqualTo(6);
      assertThat(o.report().memory().peakUsed()).isLessThanOrEqualTo(BUDGET);
    }
  }

  /**
   * With MSM tables (13 copies) in the design's msm_tables buffer, sized here to what the key needs on this GPU: the
   * tables are built once and every partition's G1 MSMs use them; the proofs verify within the budget.
   */
  @Test
  void msmTablesInTheDesignsBufferProveUnderReservation() throws Exception {
    int logN = smallLogN("MSM tables");
    Circuit circuit = Circuit.synthetic(logN, 2, 1);
    Keys keys = keys(circuit);
    ProvingWorkload workload = new ProvingWorkload(circuit, keys.pk(), dev -> ((CudaDevice) dev).provingKernels(), SEED,
        false, ProvingWorkload.BG2.CPU, 13);
    long need;
    try (CudaDevice gpu = CudaDevice.open(GIB)) {
      need = workload.msmTablesBytes(gpu.provingKernels());
    }
    String text = Files.readString(TestDesigns.path("reservation-msm-tables"))
        .replace("buffer msm_tables 5GiB", "buffer msm_tables " + need + "B");
    Design d = DesignParser.parse("reservation-msm-tables.design", text);
    long budget = need + BUDGET;
    Outcome o = prove(d, budget, circuit, keys, SEED, 6, false, workload);
    assertThat(o.verified()).isEqualTo(6);
    assertThat(o.report().memory().peakUsed()).isLessThanOrEqualTo(budget).isGreaterThanOrEqualTo(need);
    assertThat(workload.msmTablesBuildMillis()).isNotNaN();
    System.out.printf("[interlock] msm_tables %s, built in %.1f ms%n", Sizes.format(need), workload.msmTablesBuildMillis());
  }

  @Test
  void reservationProvesWhenTheBudgetHoldsTwoReservations() {
    Gpu.assumePresent();
    // twice the budget and twice the permits: 32 units of budget/16, two reservations of 14 units fit, as
    // `check designs/reservation.design --vram 32GiB --permits vram_units=32` shows in the model
    long budget = 2 * BUDGET;
    int logN = largestLogN(BUDGET);
    Circuit circuit = Circuit.synthetic(logN, 2, 1);
    Keys keys = keys(circuit);
    Design d = TestDesigns.shipped("reservation").withThreads("gpu_worker", 3).withPermits("vram_units", 32).withVram(2 * 16 * GIB);
    Outcome o = prove(d, budget, circuit, keys, SEED);
    assertThat(o.verified()).isEqualTo(10);
    assertThat(o.report().memory().peakUsed()).isLessThanOrEqualTo(budget);
    System.out.println("[interlock] reservation: times an h2d began beside another worker's ntt_msm or the other way round: "
        + Overlaps.count(o.report().events(), "h2d", "ntt_msm"));
    // Speed is for benchmarks (BENCHMARKS.md), so it is printed, not asserted: with full host work the CPU's G2 MSM bounds
    // both designs; with host work reused the GPU section does, and reservation's staging beside another worker's
    // kernels shows. Whether an h2d overlapped an ntt_msm depends on timing (the model shows it reachable).
    Design single = TestDesigns.shipped("single-lock").withThreads("gpu_worker", 3);
    for (boolean reuse : new boolean[] {false, true}) {
      int count = reuse ? 20 : 10;
      Outcome s = prove(single, budget, circuit, keys, SEED, count, reuse);
      Outcome r = reuse ? prove(d, budget, circuit, keys, SEED, count, true) : o;
      assertThat(s.verified()).isEqualTo(count);
      assertThat(r.verified()).isEqualTo(count);
      assertThat(r.report().memory().peakUsed()).isLessThanOrEqualTo(budget);
      System.out.printf("[interlock] budget %s, n=2^%d, %d partitions%s: reservation %.1f proofs/min (h2d beside ntt_msm: %d times), "
          + "single-lock %.1f%n", Sizes.format(budget), logN, count, reuse ? ", host work reused" : "",
          count / r.report().seconds() * 60, Overlaps.count(r.report().events(), "h2d", "ntt_msm"),
          count / s.report().seconds() * 60);
    }
  }
}

package dev.interlock.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.RetryPolicy;
import dev.interlock.impl.fault.FaultSpec;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.prover.Circuit;
import dev.interlock.prover.Keys;
import dev.interlock.prover.Proof;
import dev.interlock.prover.Setup;
import dev.interlock.prover.Verifier;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.model.TestDesigns;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.design.Role;
import dev.interlock.prover.Prover;
import dev.interlock.prover.Witness;
import dev.interlock.prover.WitnessShape;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.curve.Msm;
import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Real proofs behind a design's steps: they verify, and the device memory they take is the formula's. */
class ProvingWorkloadTest {
  private static final Circuit CIRCUIT = Circuit.synthetic(8, 2, 1);
  private static final Keys KEYS = Setup.generate(CIRCUIT, new SplittableRandom(8));

  private static RunReport run(String design, int workers, long vram, int partitions, ProvingWorkload workload) {
    SplittableRandom rng = new SplittableRandom(3);
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < partitions; i++) {
      parts.add(ProvingWorkload.Partition.random(i, CIRCUIT, rng.split()));
    }
    return run(design, workers, vram, parts, workload);
  }

  /** As {@link #run(String, int, long, List, ProvingWorkload)} with 1 GiB of vram; c names the circuit only for clarity. */
  private static RunReport runOn(Circuit c, String design, int workers, List<ProvingWorkload.Partition> parts, ProvingWorkload workload) {
    return run(design, workers, 1L << 30, parts, workload);
  }

  private static RunReport run(String design, int workers, long vram, List<ProvingWorkload.Partition> parts,
      ProvingWorkload workload) {
    Design d = TestDesigns.shipped(design).withThreads("gpu_worker", workers).withVram(vram);
    try (SimulatedDevice device = new SimulatedDevice(vram)) {
      return new Engine(device, StepGate.FREE).start(d, design, r -> new InterpretedPipeline(r, false, workload),
          Map.of("gpu_worker", parts)).await();
    }
  }

  @Test
  void oneWorkerPeaksAtExactlyOnePartitionsBytesAndEveryProofVerifies() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 1);
    RunReport r = run("single-lock", 1, 1L << 30, 3, w);
    assertThat(r.memory().peakUsed()).isEqualTo(w.stagedBytes() + w.scratchBytes());
    assertThat(r.completed()).isEqualTo(3);
    for (JobResult j : r.results()) {
      ProvingWorkload.Partition p = (ProvingWorkload.Partition) j.job().payload();
      assertThat(Verifier.verify(KEYS.vk(), (Proof) ((JobResult.Completed) j).value(), p.publicInputs())).isTrue();
    }
    assertThat(w.stageMillis()).containsOnlyKeys("synthesize", "stage", "ntt_h", "msm", "b_g2_msm", "epilogue");
  }

  @Test
  void bG2OnTheDeviceRunsAtTheKernelStepWithItsBasesInTheBudgetAndEveryProofVerifies() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 1, false, ProvingWorkload.BG2.GPU);
    RunReport r = run("single-lock-g2-gpu", 2, 1L << 30, 3, w);
    assertThat(r.completed()).isEqualTo(3);
    // ntt_msm holds staged and scratch; b_g2_msm, after scratch is freed, staged and the G2 bases (m points of 192 bytes)
    assertThat(w.g2BasesBytes()).isEqualTo(CIRCUIT.numVariables() * 192L);
    assertThat(r.memory().peakUsed()).isEqualTo(w.stagedBytes() + Math.max(w.scratchBytes(), w.g2BasesBytes()));
    for (JobResult j : r.results()) {
      ProvingWorkload.Partition p = (ProvingWorkload.Partition) j.job().payload();
      assertThat(Verifier.verify(KEYS.vk(), (Proof) ((JobResult.Completed) j).value(), p.publicInputs())).isTrue();
    }
    assertThat(w.stageMillis().get("b_g2_msm")).hasSize(3);
    assertThat(w.bytes(ProvingWorkload.G2_BASES, 1)).isEqualTo(w.g2BasesBytes());
  }

  private static final Circuit FILECOIN = Circuit.synthetic(new Circuit.Params(8, 2, 1, WitnessShape.filecoin(50_000)));
  private static final Keys FILECOIN_KEYS = Setup.generate(FILECOIN, new SplittableRandom(9));

  /** The proofs of a run, by partition index. */
  private static Map<Integer, Proof> proofs(RunReport r) {
    Map<Integer, Proof> out = new TreeMap<>();
    for (JobResult j : r.results()) {
      out.put(((ProvingWorkload.Partition) j.job().payload()).index(), (Proof) ((JobResult.Completed) j).value());
    }
    return out;
  }

  /**
   * Split b_g2_msm under single-lock-g2-split gives the very proofs of the whole host b_g2_msm under single-lock (same
   * seed: same randomizers), and they verify: with a filecoin witness (mostly 0/1: the device sums many ones) and a
   * field witness (almost every scalar full-width: the host's tail is nearly the whole MSM).
   */
  @Test
  void splitBG2GivesTheSameProofsAsTheHostsWholeMsmWithFilecoinAndFieldWitnesses() {
    for (Circuit c : List.of(FILECOIN, CIRCUIT)) {
      Keys keys = c == FILECOIN ? FILECOIN_KEYS : KEYS;
      long seed = 11;
      System.out.println("[interlock] split b_g2 test: " + c.params().witness() + ", seed " + seed + " (fixed), partitions seed 5");
      List<ProvingWorkload.Partition> parts = new ArrayList<>();
      SplittableRandom rng = new SplittableRandom(5);
      for (int i = 0; i < 3; i++) {
        parts.add(ProvingWorkload.Partition.random(i, c, rng.split()));
      }
      ProvingWorkload split = new ProvingWorkload(c, keys.pk(), CpuProvingKernels::new, seed, false, ProvingWorkload.BG2.SPLIT);
      ProvingWorkload whole = new ProvingWorkload(c, keys.pk(), CpuProvingKernels::new, seed);
      RunReport rs = runOn(c, "single-lock-g2-split", 2, parts, split);
      RunReport rw = runOn(c, "single-lock", 2, parts, whole);
      assertThat(rs.completed()).isEqualTo(3);
      Map<Integer, Proof> ps = proofs(rs);
      assertThat(ps).isEqualTo(proofs(rw));
      for (ProvingWorkload.Partition p : parts) {
        assertThat(Verifier.verify(keys.vk(), ps.get(p.index()), p.publicInputs())).as("partition %d", p.index()).isTrue();
      }
      assertThat(split.stageMillis()).containsOnlyKeys("synthesize", "stage", "ntt_h", "msm", "b_g2_ones", "b_g2_msm", "epilogue");
      assertThat(split.stageMillis().get("b_g2_ones")).hasSize(3);
      assertThat(split.stageMillis().get("b_g2_msm")).hasSize(3);
      // ntt_msm holds staged and scratch; b_g2_ones, after scratch is freed, staged and g2_bases (m G2 points + m scalars)
      assertThat(split.g2BasesBytes()).isEqualTo(c.numVariables() * (192L + 32));
      assertThat(rs.memory().peakUsed()).isEqualTo(split.stagedBytes() + Math.max(split.scratchBytes(), split.g2BasesBytes()));
      assertThat(split.gpuSectionOverHostBG2()).isPresent();
      assertThat(whole.gpuSectionOverHostBG2()).isPresent();
    }
  }

  /** The ones' sum and the host's tail add up to b_g2_msm, and a filecoin witness's mask has ones to sum and full scalars left. */
  @Test
  void onesMaskAndTailAddUpToTheWholeG2Msm() {
    SplittableRandom rng = new SplittableRandom(21);
    ProvingWorkload.Partition p = ProvingWorkload.Partition.random(0, FILECOIN, rng);
    Witness w = FILECOIN.witness(p.publicInputs(), p.privateSeeds());
    long[] mask = Prover.bG2OnesMask(w);
    long[] canonical = Fr.toCanonical(mask, 0, w.size());
    int ones = 0;
    int full = 0;
    for (int i = 0; i < w.size(); i++) {
      boolean one = w.get(i).isOne();
      assertThat(FrElement.read(mask, i)).isEqualTo(one ? FrElement.ONE : FrElement.ZERO);
      ones += one ? 1 : 0;
      full += !one && !w.get(i).isZero() ? 1 : 0;
    }
    assertThat(ones).as("ones in the filecoin witness").isGreaterThan(w.size() / 4);
    assertThat(full).as("full-width scalars").isPositive();
    G2 sum = Msm.msm(FILECOIN_KEYS.pk().bG2Query(), canonical).add(Prover.bG2Tail(FILECOIN_KEYS.pk(), w));
    assertThat(sum).isEqualTo(Prover.bG2Msm(FILECOIN_KEYS.pk(), w));
    assertThat(Prover.bG2Tail(FILECOIN_KEYS.pk(), w)).isNotEqualTo(Prover.bG2Msm(FILECOIN_KEYS.pk(), w));
  }

  /** Each --b-g2 mode refuses the designs whose b_g2 steps do not fit it, naming the steps it needs. */
  @Test
  void splitNeedsTheOnesKernelAndTheCpuJoinAndOtherModesRefuseTheOnesKernel() throws Exception {
    Role single = TestDesigns.shipped("single-lock").role("gpu_worker").orElseThrow();
    Role gpu = TestDesigns.shipped("single-lock-g2-gpu").role("gpu_worker").orElseThrow();
    Role split = TestDesigns.shipped("single-lock-g2-split").role("gpu_worker").orElseThrow();
    assertThat(ProvingWorkload.bG2Problem(split, ProvingWorkload.BG2.SPLIT)).isEmpty();
    assertThat(ProvingWorkload.bG2Problem(single, ProvingWorkload.BG2.SPLIT)).get(STRING)
        .contains("kernel b_g2_ones uses g2_bases").contains("only `cpu b_g2_msm`").contains("--b-g2 cpu")
        .contains("designs/single-lock-g2-split.design");
    assertThat(ProvingWorkload.bG2Problem(gpu, ProvingWorkload.BG2.SPLIT)).get(STRING)
        .contains("only `kernel b_g2_msm`").contains("--b-g2 gpu");
    Role onesOnly = DesignParser.parse("ones-only.design", "design d\nvram 1GiB\nrole w x1 jobs 1\n  cpu synthesize\n  alloc g2_bases 1MiB\n"
        + "  kernel b_g2_ones uses g2_bases\n  free g2_bases\n  cpu epilogue\n").role("w").orElseThrow();
    assertThat(ProvingWorkload.bG2Problem(onesOnly, ProvingWorkload.BG2.SPLIT)).get(STRING).contains("only `kernel b_g2_ones`")
        .contains("`cpu b_g2_msm`");
    assertThat(ProvingWorkload.bG2Problem(split, ProvingWorkload.BG2.CPU)).get(STRING).contains("--b-g2 split");
    assertThat(ProvingWorkload.bG2Problem(split, ProvingWorkload.BG2.GPU)).get(STRING).contains("use --b-g2 split");
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 1, false, ProvingWorkload.BG2.SPLIT);
    assertThatThrownBy(() -> w.bind(single)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("b_g2_ones");
  }

  private static final long TABLES_CARD = 6L << 30;

  /** Runs 3 partitions (seed 5) under {@code d}, 2 workers, on a simulated card of TABLES_CARD bytes. */
  private static RunReport runTables(Design d, ProvingWorkload w) {
    SplittableRandom rng = new SplittableRandom(5);
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      parts.add(ProvingWorkload.Partition.random(i, CIRCUIT, rng.split()));
    }
    try (SimulatedDevice device = new SimulatedDevice(TABLES_CARD)) {
      return new Engine(device, StepGate.FREE).start(d.withThreads("gpu_worker", 2), d.name(),
          r -> new InterpretedPipeline(r, false, w), Map.of("gpu_worker", parts)).await();
    }
  }

  /**
   * With MSM tables the G1 MSMs read the bases and tables resident in msm_tables (built once), staged holds no bases,
   * and the proofs are those of the run without tables (same seed), and verify.
   */
  @Test
  void msmTablesAreBuiltOnceInTheDesignsBufferAndGiveTheSameProofs() {
    Design d = TestDesigns.shipped("reservation-msm-tables");
    ProvingWorkload tables = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 4, false, ProvingWorkload.BG2.CPU, 13);
    ProvingWorkload plain = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 4);
    RunReport rt = runTables(d, tables);
    assertThat(rt.completed()).as(rt.results().toString()).isEqualTo(3);
    Map<Integer, Proof> pt = proofs(rt);
    RunReport rp = runTables(TestDesigns.shipped("reservation").withVram(TABLES_CARD), plain);
    assertThat(rp.completed()).isEqualTo(3);
    assertThat(pt).isEqualTo(proofs(rp));
    SplittableRandom rng = new SplittableRandom(5);
    for (int i = 0; i < 3; i++) {
      ProvingWorkload.Partition p = ProvingWorkload.Partition.random(i, CIRCUIT, rng.split());
      assertThat(Verifier.verify(KEYS.vk(), pt.get(i), p.publicInputs())).as("partition %d", i).isTrue();
    }
    int m = CIRCUIT.numVariables();
    int n = CIRCUIT.size();
    long setsBytes = (2L * m + (m - 3) + (n - 1)) * 96; // a, b_g1: m bases; l: the private ones; h: n - 1
    assertThat(tables.msmTablesBytes(new CpuProvingKernels(new SimulatedDevice(1)))).isEqualTo(13 * setsBytes);
    assertThat(tables.stagedBytes()).isEqualTo((3L * n + m) * 32).isLessThan(plain.stagedBytes());
    assertThat(tables.msmTablesBuildMillis()).isNotNaN();
    // the tables' 5 GiB are device memory for the whole run, beside each worker's partition
    assertThat(rt.memory().peakUsed()).isGreaterThan(5L << 30).isLessThanOrEqualTo((5L << 30) + 2 * (tables.stagedBytes()
        + tables.scratchBytes()));
  }

  /**
   * A poison in the middle of the msm step reopens the device, which allocates msm_tables again, empty: the tables are
   * built again there (not taken as built from the lost context), and every partition ends with a proof that verifies.
   */
  @Test
  void msmTablesAreBuiltAgainAfterAPoisonReopensTheDevice() {
    Design d = TestDesigns.shipped("reservation-msm-tables").withThreads("gpu_worker", 2);
    FaultyProvingKernels kernels = new FaultyProvingKernels(() -> new CpuProvingKernels(new SimulatedDevice(TABLES_CARD)),
        new Faults(FaultSpec.parse("--faults", "poison@msm:2"), 1));
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), device -> kernels, 4, false, ProvingWorkload.BG2.CPU, 3);
    SplittableRandom rng = new SplittableRandom(5);
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      parts.add(ProvingWorkload.Partition.random(i, CIRCUIT, rng.split()));
    }
    RunReport r = new Engine(kernels.device(), StepGate.FREE, 100, new RetryPolicy(2, 0, false)).start(d, d.name(),
        role -> new InterpretedPipeline(role, false, w), Map.of("gpu_worker", parts)).await();
    assertThat(kernels.device().reopens()).isEqualTo(1);
    assertThat(r.completed()).as(r.results().toString()).isEqualTo(3);
    assertThat(kernels.generation()).isEqualTo(1);
    Map<Integer, Proof> proofs = proofs(r);
    for (ProvingWorkload.Partition p : parts) {
      assertThat(Verifier.verify(KEYS.vk(), proofs.get(p.index()), p.publicInputs())).as("partition %d", p.index()).isTrue();
    }
  }

  /** The size check names the buffer and the bytes needed against those declared; a run with a too small buffer fails at msm. */
  @Test
  void aTablesBufferTooSmallForTheKeyIsRefused() throws Exception {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 4, false, ProvingWorkload.BG2.CPU, 4);
    CpuProvingKernels k = new CpuProvingKernels(new SimulatedDevice(1));
    long need = w.msmTablesBytes(k);
    assertThat(w.msmTablesSizeProblem(need, k)).isEmpty();
    assertThat(w.msmTablesSizeProblem(need - 1, k)).get(STRING).contains("buffer msm_tables is " + (need - 1) + " bytes")
        .contains("need " + need + " bytes");
    assertThat(w.msmTablesSizeProblem(0, k)).get(STRING).contains("needs a design line `buffer msm_tables SIZE`");
    String text = java.nio.file.Files.readString(TestDesigns.path("reservation-msm-tables")).replace("buffer msm_tables 5GiB",
        "buffer msm_tables " + (need - 1) + "B");
    RunReport r = runTables(DesignParser.parse("small-tables.design", text), w);
    assertThat(r.completed()).isZero();
    assertThat(r.results().toString()).contains("need " + need + " bytes");
  }

  /** With tables the msm steps must use msm_tables; without, none may. */
  @Test
  void tablesNeedAnMsmStepThatUsesTheBufferAndNoTablesRefusesOne() {
    Role plain = TestDesigns.shipped("reservation").role("gpu_worker").orElseThrow();
    Role tables = TestDesigns.shipped("reservation-msm-tables").role("gpu_worker").orElseThrow();
    assertThat(ProvingWorkload.msmTablesRoleProblem(tables, 13)).isEmpty();
    assertThat(ProvingWorkload.msmTablesRoleProblem(plain, 0)).isEmpty();
    assertThat(ProvingWorkload.msmTablesRoleProblem(plain, 13)).get(STRING).contains("--msm-tables 13: step `kernel ntt_msm uses "
        + "staged scratch` does not use msm_tables");
    assertThat(ProvingWorkload.msmTablesRoleProblem(tables, 0)).get(STRING).contains("MSM tables are off: run with --msm-tables K");
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 4, false, ProvingWorkload.BG2.CPU, 13);
    assertThatThrownBy(() -> w.bind(plain)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not use msm_tables");
    assertThatThrownBy(() -> new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 4, false, ProvingWorkload.BG2.CPU, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 2 copies");
  }

  @Test
  void bG2WhereTheDesignDoesNotPutItIsRefusedAtBind() {
    ProvingWorkload gpu = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 1, false, ProvingWorkload.BG2.GPU);
    assertThatThrownBy(() -> gpu.bind(TestDesigns.shipped("single-lock").role("gpu_worker").orElseThrow()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("only `cpu b_g2_msm`")
        .hasMessageContaining("kernel b_g2_msm uses");
    ProvingWorkload cpu = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 1);
    assertThatThrownBy(() -> cpu.bind(TestDesigns.shipped("single-lock-g2-gpu").role("gpu_worker").orElseThrow()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--b-g2 gpu");
  }

  @Test
  void aKernelBG2StepInsideAnIfBlockCountsForTheGpuMode() throws Exception {
    Design d = DesignParser.parse("inline.design", String.join("\n",
        "design g2_in_if",
        "vram 16GiB",
        "role gpu_worker x1 jobs 1",
        "  alloc staged 12GiB",
        "  if free >= 1GiB",
        "  alloc g2_bases 1GiB",
        "  kernel b_g2_msm uses staged g2_bases",
        "  free g2_bases",
        "  else",
        "  cpu b_g2_msm",
        "  end",
        "  free staged",
        ""));
    var role = d.role("gpu_worker").orElseThrow();
    assertThat(ProvingWorkload.bG2Problem(role, ProvingWorkload.BG2.GPU)).isEmpty();
    assertThat(ProvingWorkload.bG2Problem(role, ProvingWorkload.BG2.CPU)).hasValueSatisfying(m -> assertThat(m).contains("--b-g2 gpu"));
  }

  @Test
  void aDeviceTooSmallForOnePartitionFailsEveryJobWithOomAtStaging() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 1);
    RunReport r = run("single-lock", 2, w.stagedBytes() - 1, 4, w);
    assertThat(r.results()).hasSize(4).allSatisfy(j -> {
      assertThat(j).isInstanceOf(JobResult.Failed.class);
      JobResult.Failed f = (JobResult.Failed) j;
      assertThat(f.violation().kind()).isEqualTo(ViolationKind.OOM);
      assertThat(f.step()).isEqualTo("alloc staged 12GiB");
    });
    assertThat(r.memory().live()).isZero();
  }

  @Test
  void reservationProvesWithSeveralWorkers() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 2);
    RunReport r = run("reservation", 3, 16L << 30, 5, w);
    assertThat(r.completed()).isEqualTo(5);
    assertThat(r.memory().peakUsed()).isLessThanOrEqualTo(3 * (w.stagedBytes() + w.scratchBytes()));
  }

  @Test
  void reusedHostWorkIsComputedOnceAndEveryProofStillVerifiesWithItsOwnRandomizers() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 4, true);
    ProvingWorkload.Partition shared = ProvingWorkload.Partition.random(0, CIRCUIT, new SplittableRandom(5));
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      parts.add(new ProvingWorkload.Partition(i, shared.publicInputs(), shared.privateSeeds()));
    }
    RunReport r = run("reservation", 3, 16L << 30, parts, w);
    assertThat(r.completed()).isEqualTo(6);
    List<Proof> proofs = new ArrayList<>();
    for (JobResult j : r.results()) {
      Proof p = (Proof) ((JobResult.Completed) j).value();
      assertThat(Verifier.verify(KEYS.vk(), p, shared.publicInputs())).isTrue();
      proofs.add(p);
    }
    assertThat(proofs).doesNotHaveDuplicates();
    assertThat(w.stageMillis().get("synthesize")).hasSize(1);
    assertThat(w.stageMillis().get("b_g2_msm")).hasSize(1);
    assertThat(w.stageMillis().get("stage")).hasSize(6);
    assertThat(w.stageMillis().get("msm")).hasSize(6);
  }

  @Test
  void reusedHostWorkIsKeptPerDistinctInputAndEachProofVerifiesAgainstItsOwn() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 6, true);
    SplittableRandom rng = new SplittableRandom(7);
    List<ProvingWorkload.Partition> inputs = List.of(
        ProvingWorkload.Partition.random(0, CIRCUIT, rng.split()), ProvingWorkload.Partition.random(0, CIRCUIT, rng.split()));
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      ProvingWorkload.Partition in = inputs.get(i % 2);
      parts.add(new ProvingWorkload.Partition(i, in.publicInputs(), in.privateSeeds()));
    }
    RunReport r = run("single-lock", 3, 16L << 30, parts, w);
    assertThat(r.completed()).isEqualTo(6);
    for (JobResult j : r.results()) {
      Proof p = (Proof) ((JobResult.Completed) j).value();
      int i = ((ProvingWorkload.Partition) j.job().payload()).index();
      assertThat(Verifier.verify(KEYS.vk(), p, inputs.get(i % 2).publicInputs())).as("job %d, its own inputs", i).isTrue();
      assertThat(Verifier.verify(KEYS.vk(), p, inputs.get((i + 1) % 2).publicInputs())).as("job %d, the other's", i).isFalse();
    }
    assertThat(w.stageMillis().get("synthesize")).hasSize(2);
    assertThat(w.stageMillis().get("b_g2_msm")).hasSize(2);
  }

  @Test
  void aFailedSharedSynthesisAbortsTheJobsThatReuseItWithItsCause() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 6, true);
    // three public inputs for a circuit that takes two: synthesis throws
    ProvingWorkload.Partition bad = ProvingWorkload.Partition.random(0, Circuit.synthetic(8, 3, 1), new SplittableRandom(9));
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      parts.add(new ProvingWorkload.Partition(i, bad.publicInputs(), bad.privateSeeds()));
    }
    RunReport r = run("single-lock", 2, 16L << 30, parts, w);
    assertThat(r.completed()).isZero();
    // a pipeline error aborts its job and ends the run: one or both workers' first jobs say why, the rest that it ended
    List<String> why = r.results().stream().map(j -> ((JobResult.Aborted) j).why()).toList();
    assertThat(why).filteredOn(y -> y.startsWith("pipeline error: ")).as(why.toString()).isNotEmpty()
        .allSatisfy(y -> assertThat(y).contains("circuit takes 2 public inputs").doesNotContain("CompletionException"));
    // the failed synthesis stays memoized: the next run's jobs reuse it and report it as another job's, with its cause
    RunReport again = run("single-lock", 1, 16L << 30, parts, w);
    assertThat(((JobResult.Aborted) again.results().get(0)).why())
        .contains("the shared synthesis of its inputs failed in another job").contains("circuit takes 2 public inputs")
        .doesNotContain("CompletionException");
  }

  @Test
  void preparedHostWorkIsReusedFromTheFirstPartitionOn() {
    ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 4, true);
    ProvingWorkload.Partition shared = ProvingWorkload.Partition.random(0, CIRCUIT, new SplittableRandom(5));
    w.prepare(shared);
    assertThat(w.stageMillis().get("synthesize")).hasSize(1);
    assertThat(w.stageMillis().get("b_g2_msm")).hasSize(1);
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      parts.add(new ProvingWorkload.Partition(i, shared.publicInputs(), shared.privateSeeds()));
    }
    RunReport r = run("single-lock", 2, 16L << 30, parts, w);
    assertThat(r.completed()).isEqualTo(3);
    assertThat(w.stageMillis().get("synthesize")).hasSize(1);
    assertThat(w.stageMillis().get("b_g2_msm")).hasSize(1);
    assertThat(w.stageMillis().get("msm")).hasSize(3);
    assertThatThrownBy(() -> new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 4).prepare(shared))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("reuses host work");
  }

  @Test
  void aDesignStepWithNoProvingStageIsRefusedBeforeAnyJobRuns() {
    Design d = TestDesigns.parse("""
        design odd
        vram 16GiB
        role gpu_worker jobs 1
          alloc staged 1GiB
          kernel fft uses staged
          free staged
        """);
    try (ProvingWorkload w = new ProvingWorkload(CIRCUIT, KEYS.pk(), CpuProvingKernels::new, 1)) {
      assertThatThrownBy(() -> new InterpretedPipeline(d.roles().get(0), false, w))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("role gpu_worker").hasMessageContaining("no kernel stage 'fft'")
          .hasMessageContaining("stage, h2d, ntt_h, msm, ntt_msm");
      // a cpu step may not name a kernel stage either
      assertThatThrownBy(() -> w.bind(TestDesigns.parse("design c\nvram 1GiB\nrole r\n  cpu ntt_msm\n").roles().get(0)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no cpu stage 'ntt_msm'");
      // nor a step inside either branch of an `if free` block
      assertThatThrownBy(() -> w.bind(TestDesigns.parse(
          "design c\nvram 1GiB\nrole r\n  if free >= 1MiB\n  cpu synthesize\n  else\n  kernel fft\n  end\n").roles().get(0)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no kernel stage 'fft'");
      // nor a step in an `on oom` handler or in the success path after its `else`
      assertThatThrownBy(() -> w.bind(TestDesigns.parse("design c\nvram 1GiB\nrole r\n  alloc staged 1MiB\n  on oom\n"
          + "  cpu retry\n  end\n  free staged\n").roles().get(0)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no cpu stage 'retry'");
      assertThatThrownBy(() -> w.bind(TestDesigns.parse("design c\nvram 1GiB\nrole r\n  alloc staged 1MiB\n  on oom\n"
          + "  cpu synthesize\n  else\n  kernel fft uses staged\n  free staged\n  end\n").roles().get(0)))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no kernel stage 'fft'");
      // every shipped design binds
      for (String name : List.of("single-lock", "single-lock-late-release", "two-lock", "reservation")) {
        TestDesigns.shipped(name).roles().forEach(w::bind);
      }
    }
  }
}

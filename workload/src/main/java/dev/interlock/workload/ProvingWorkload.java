package dev.interlock.workload;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.api.DeviceBuffer;
import dev.interlock.impl.api.Job;
import dev.interlock.impl.api.KernelRun;
import dev.interlock.impl.pipeline.Workload;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Steps;
import dev.interlock.prover.Circuit;
import dev.interlock.prover.MsmResults;
import dev.interlock.prover.PartitionSizes;
import dev.interlock.prover.Proof;
import dev.interlock.prover.Prover;
import dev.interlock.prover.ProvingKey;
import dev.interlock.prover.Synthesized;
import dev.interlock.prover.Witness;
import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G1Bases;
import dev.interlock.prover.curve.G2;
import dev.interlock.prover.field.Fr;
import dev.interlock.prover.field.FrElement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.random.RandomGenerator;

/**
 * Groth16 partition proofs as the work behind a design's steps, in cuzk's stages, with the device's work done by
 * {@link ProvingKernels} on the engine's device.
 *
 * <p>Bindings ({@link Stage}; a design step with a name not listed there is refused by {@link #bind}): {@code cpu synthesize} computes the a, b, c evaluations; buffer {@code staged} is
 * sized for a, b, c, the witness scalars and the four G1 queries, {@code scratch} for H (see
 * {@link PartitionSizes}); {@code kernel stage} (or {@code h2d}) copies them to the device;
 * {@code kernel ntt_h} computes H on the device (its quotient kernel: six NTTs, a pointwise step and
 * one more NTT); {@code kernel msm} the four G1 MSMs; {@code kernel ntt_msm} all three; the G2 MSM starts on a thread of its own when synthesis ends,
 * as cuzk starts b_g2_msm before the GPU lock, and {@code cpu b_g2_msm} joins it ({@link BG2} says where b_g2_msm
 * runs: with {@link BG2#GPU} at {@code kernel b_g2_msm}, with {@link BG2#SPLIT} its ones at {@code kernel b_g2_ones}
 * and only its full-scalar tail on that thread); {@code cpu
 * epilogue} draws the randomizers and assembles the proof, which is the job's result.
 *
 * <p>Staged layout: scalars a at 0, b at N, c at 2N, the witness at 3N (elements of 32 bytes),
 * then from byte (3N + m)·32 the a, b_g1, l and h queries (96 bytes a point).
 */
public final class ProvingWorkload implements Workload, AutoCloseable {
  /** The stages a design's {@code cpu} and {@code kernel} steps can name, and which of the two each is. */
  public enum Stage {
    SYNTHESIZE("synthesize", false),
    B_G2_MSM("b_g2_msm", false),
    EPILOGUE("epilogue", false),
    /** b_g2_msm as device work ({@link BG2#GPU}): the G2 MSM by the proving kernels, over the buffers its step uses. */
    B_G2_MSM_KERNEL("b_g2_msm", true),
    /** The 0/1 part of a split b_g2_msm ({@link BG2#SPLIT}): the sum of the b_g2 bases whose scalar is 1, on the device. */
    B_G2_ONES("b_g2_ones", true),
    STAGE("stage", true),
    H2D("h2d", true),
    NTT_H("ntt_h", true),
    MSM("msm", true),
    NTT_MSM("ntt_msm", true);

    private final String stepName;
    private final boolean kernel;

    Stage(String stepName, boolean kernel) {
      this.stepName = stepName;
      this.kernel = kernel;
    }

    /** The name a design gives the step, e.g. {@code ntt_msm}. */
    public String stepName() {
      return stepName;
    }

    /** Whether it is a {@code kernel} step (else a {@code cpu} interval). */
    public boolean kernel() {
      return kernel;
    }

    /** The stage a {@code cpu} ({@code kernel} false) or {@code kernel} step of this name runs, if any. */
    public static Optional<Stage> of(String stepName, boolean kernel) {
      return Arrays.stream(values()).filter(st -> st.stepName.equals(stepName) && st.kernel == kernel).findFirst();
    }

    /** The names of the stages of one kind, for messages. */
    static List<String> names(boolean kernel) {
      return Arrays.stream(values()).filter(st -> st.kernel == kernel).map(Stage::stepName).toList();
    }
  }

  /**
   * One partition of a proof request: its index, public inputs and private seeds; synthesis
   * computes the rest of the witness from them.
   */
  public record Partition(int index, List<FrElement> publicInputs, List<FrElement> privateSeeds) {
    public Partition {
      publicInputs = List.copyOf(publicInputs);
      privateSeeds = List.copyOf(privateSeeds);
    }

    /** A partition with random inputs and seeds for {@code circuit}. */
    public static Partition random(int index, Circuit circuit, RandomGenerator rng) {
      List<FrElement> inputs = new ArrayList<>();
      for (int i = 0; i < circuit.publicInputs(); i++) {
        inputs.add(FrElement.random(rng));
      }
      List<FrElement> seeds = new ArrayList<>();
      for (int i = 0; i < Circuit.PRIVATE_SEEDS; i++) {
        seeds.add(FrElement.random(rng));
      }
      return new Partition(index, inputs, seeds);
    }
  }

  /** Where b_g2_msm runs: on the host's cores (as cuzk does by default) or as device work a design's kernel step names. */
  public enum BG2 {
    /** On a thread of its own from the end of synthesis, joined at {@code cpu b_g2_msm} (or at the epilogue). */
    CPU,
    /** At the design's {@code kernel b_g2_msm uses BUFFERS} step, by {@link ProvingKernels#g2Msm} into buffer {@value #G2_BASES}. */
    GPU,
    /**
     * Split as cuzk splits it: the sum of the bases whose scalar is 1 at the design's {@code kernel b_g2_ones uses
     * BUFFERS} step (device work, {@link ProvingKernels#g2Msm} over the 0/1 mask in buffer {@value #G2_BASES}), the
     * full-width tail on the host from the end of synthesis, joined at {@code cpu b_g2_msm}.
     */
    SPLIT,
    /**
     * The whole G2 MSM on the host at the design's {@code cpu b_g2_msm} step (or at the epilogue), on the worker's
     * thread: nothing runs beside the design's steps, so their measured times are all the work there is, as a
     * simulation ({@code simulate --durations}) reads them.
     */
    INLINE;

    /** The option's value as {@code --b-g2} spells it. */
    public String optionValue() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The buffer a {@code kernel b_g2_msm} or {@code kernel b_g2_ones} step writes the G2 bases into, sized by
   * {@link #bytes}: m G2 points, and with {@link BG2#SPLIT} the m scalars of the 0/1 mask after them.
   */
  public static final String G2_BASES = "g2_bases";

  /**
   * The device buffer (a design's {@code buffer msm_tables SIZE}, live for the whole run) that holds, with {@code prove
   * --msm-tables K}, the key's four G1 base sets (a, b_g1, l, h) and each one's MSM table, built once at first use.
   */
  public static final String MSM_TABLES = "msm_tables";

  private final Circuit circuit;
  private final ProvingKey pk;
  private final BG2 bG2Mode;
  /** Copies of each G1 base in the MSM tables (0: no tables, the MSMs read the staged bases). */
  private final int tableCopies;
  /**
   * The msm_tables buffers whose tables are built (one per device in practice), each with the device generation
   * ({@link ProvingKernels#generation()}) it was built in: a reopened device holds the buffer again, empty; guarded by
   * itself.
   */
  private final Map<DeviceBuffer, Integer> tablesBuilt = new IdentityHashMap<>();
  private volatile double tablesBuildMillis = Double.NaN;
  /** The kernels on a device, asked once per device the engine runs this workload on. */
  private final Function<Device, ProvingKernels> kernelsOn;
  private final Map<Device, ProvingKernels> kernels = Collections.synchronizedMap(new IdentityHashMap<>());
  /** Threads for the G2 MSMs, one per job in flight; shut down by {@link #close()}. */
  private final ExecutorService bG2Threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "b_g2_msm");
    t.setDaemon(true);
    return t;
  });
  private final PartitionSizes sizes;
  private final long seed;
  private final int n;
  private final int m;
  private final Map<String, List<Double>> stageMillis = new ConcurrentHashMap<>();
  private final boolean reuseHostWork;
  /**
   * With reuseHostWork: each distinct partition input's synthesis and G2 MSM, computed by the first job to need it.
   * Kept for the workload's life (a benchmark's few distinct inputs; a failed entry stays failed).
   */
  private final Map<List<List<FrElement>>, CompletableFuture<HostWork>> hostWork = new ConcurrentHashMap<>();

  /** What synthesis hands on: the witness, its a, b, c and the G2 MSM started from it. */
  private record HostWork(Witness witness, Synthesized synthesized, Future<G2> bG2) {}

  /**
   * A workload proving partitions of {@code circuit} with {@code pk}, its device work done by the kernels
   * {@code kernelsOn} gives for the engine's device (e.g. {@code CpuProvingKernels::new}, or a GPU's own);
   * {@code seed} seeds the randomizers r, s.
   */
  public ProvingWorkload(Circuit circuit, ProvingKey pk, Function<Device, ProvingKernels> kernelsOn, long seed) {
    this(circuit, pk, kernelsOn, seed, false);
  }

  /**
   * As {@link #ProvingWorkload(Circuit, ProvingKey, Function, long)}; with {@code reuseHostWork}, partitions with equal inputs
   * share one synthesis and one G2 MSM (the first job computes them, later ones wait for and reuse them).
   *
   * <p>A benchmark knob: with every partition given the same inputs, the CPU stages leave the critical path and the
   * GPU section (staging, ntt_h, msm, under the design's locks) bounds throughput, the regime in which designs that
   * overlap one worker's staging with another's kernels can differ. Every proof is still made and verifies
   * (its own randomizers; the GPU work is done per partition).
   */
  public ProvingWorkload(Circuit circuit, ProvingKey pk, Function<Device, ProvingKernels> kernelsOn, long seed,
      boolean reuseHostWork) {
    this(circuit, pk, kernelsOn, seed, reuseHostWork, BG2.CPU);
  }

  /**
   * As {@link #ProvingWorkload(Circuit, ProvingKey, Function, long, boolean)}, with b_g2_msm where {@code bG2} says: with
   * {@link BG2#GPU} it is device work, and {@link #bind} accepts only roles that have a {@code kernel b_g2_msm} step.
   */
  public ProvingWorkload(Circuit circuit, ProvingKey pk, Function<Device, ProvingKernels> kernelsOn, long seed,
      boolean reuseHostWork, BG2 bG2) {
    this(circuit, pk, kernelsOn, seed, reuseHostWork, bG2, 0);
  }

  /**
   * As {@link #ProvingWorkload(Circuit, ProvingKey, Function, long, boolean, BG2)}; with {@code msmTableCopies} of 2 or
   * more, the G1 MSMs use precomputed tables of that many copies of each base, held with the bases in the design's
   * {@value #MSM_TABLES} buffer (built at the first msm step; the staged buffer then holds no bases), and {@link #bind}
   * accepts only roles whose msm steps use that buffer. 0: no tables.
   */
  public ProvingWorkload(Circuit circuit, ProvingKey pk, Function<Device, ProvingKernels> kernelsOn, long seed,
      boolean reuseHostWork, BG2 bG2, int msmTableCopies) {
    this.bG2Mode = Objects.requireNonNull(bG2, "bG2");
    if (msmTableCopies != 0 && msmTableCopies < 2) {
      throw new IllegalArgumentException("MSM tables need at least 2 copies of each base (0: no tables), got " + msmTableCopies);
    }
    this.tableCopies = msmTableCopies;
    if (!pk.params().equals(circuit.params())) {
      throw new IllegalArgumentException("proving key is for " + pk.params() + ", circuit is " + circuit.params());
    }
    this.circuit = circuit;
    this.pk = pk;
    this.kernelsOn = Objects.requireNonNull(kernelsOn, "kernelsOn");
    this.sizes = PartitionSizes.of(circuit);
    this.seed = seed;
    this.n = circuit.size();
    this.m = circuit.numVariables();
    this.reuseHostWork = reuseHostWork;
  }

  /**
   * Wall milliseconds of each stage run so far (synthesize, stage, ntt_h, msm, b_g2_ones, b_g2_msm, epilogue),
   * one entry per partition: the stages inside a combined kernel such as ntt_msm are timed apart. With
   * {@link BG2#SPLIT}, b_g2_ones is the device's sum of the ones and b_g2_msm the host's tail.
   */
  public Map<String, List<Double>> stageMillis() {
    Map<String, List<Double>> copy = new LinkedHashMap<>();
    for (String stage : List.of(Stage.SYNTHESIZE.stepName, Stage.STAGE.stepName, Stage.NTT_H.stepName, Stage.MSM.stepName,
        Stage.B_G2_ONES.stepName, Stage.B_G2_MSM.stepName, Stage.EPILOGUE.stepName)) {
      List<Double> l = stageMillis.get(stage);
      if (l != null) {
        synchronized (l) {
          copy.put(stage, List.copyOf(l));
        }
      }
    }
    return copy;
  }

  /** The stages whose medians make up {@link #gpuSectionOverHostBG2}'s GPU section. */
  public static final List<String> GPU_SECTION_STAGES = List.of(Stage.STAGE.stepName, Stage.NTT_H.stepName, Stage.MSM.stepName,
      Stage.B_G2_ONES.stepName);

  /**
   * cuzk's proportion: the GPU section (the sum of the medians per partition of {@link #GPU_SECTION_STAGES} that ran)
   * over the median host time of b_g2_msm (the whole G2 MSM with {@link BG2#CPU}, the tail with {@link BG2#SPLIT});
   * empty when b_g2_msm is not host work here ({@link BG2#GPU}) or a stage has no timing yet. Above 1, a worker's
   * b_g2_msm fits beside the next worker's GPU section.
   */
  public OptionalDouble gpuSectionOverHostBG2() {
    Map<String, List<Double>> t = stageMillis();
    List<Double> host = t.get(Stage.B_G2_MSM.stepName);
    if (bG2Mode == BG2.GPU || host == null || t.get(Stage.MSM.stepName) == null) {
      return OptionalDouble.empty();
    }
    double section = 0;
    for (String st : GPU_SECTION_STAGES) {
      List<Double> l = t.get(st);
      section += l == null ? 0 : median(l);
    }
    double h = median(host);
    return h > 0 ? OptionalDouble.of(section / h) : OptionalDouble.empty();
  }

  /** The median of non-empty values (the upper one of an even count, as prove's stage line takes it). */
  public static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }

  private void timed(String stage, Runnable r) {
    long t = System.nanoTime();
    r.run();
    record(stage, t);
  }

  private void record(String stage, long startNanos) {
    List<Double> l = stageMillis.computeIfAbsent(stage, k -> new ArrayList<>());
    synchronized (l) {
      l.add((System.nanoTime() - startNanos) / 1e6);
    }
  }

  /**
   * The G2 MSM of a job, started on its own thread when synthesis ends (as cuzk starts b_g2_msm
   * before taking the GPU lock) and joined where the design places {@code cpu b_g2_msm}.
   */
  /** The host's G2 MSM of s: computed here and timed with {@link BG2#INLINE}, else the one started at synthesis. */
  private G2 hostBG2(State s) {
    if (bG2Mode != BG2.INLINE) {
      return join(s);
    }
    require(s.witness != null, "b_g2_msm before synthesize");
    long t = System.nanoTime();
    G2 r = Prover.bG2Msm(pk, s.witness);
    record(Stage.B_G2_MSM.stepName, t);
    return r;
  }

  private static G2 join(State s) {
    require(s.bG2Task != null, "b_g2_msm before synthesize");
    return awaitBG2(s.bG2Task);
  }

  /** The G2 MSM's result once it is done; its failure, or an interrupt, as IllegalStateException. */
  private static G2 awaitBG2(Future<G2> task) {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for b_g2_msm", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("b_g2_msm failed: " + e.getCause(), e.getCause());
    }
  }

  /** Bytes of the staged buffer: a, b, c, witness and the G1 queries (without MSM tables; with them, no queries). */
  public long stagedBytes() {
    return tableCopies > 0 ? (3L * n + m) * ProvingKernels.SCALAR_BYTES : sizes.totalBytes() - sizes.hScratchBytes();
  }

  /** Copies of each base in the MSM tables; 0 without tables. */
  public int msmTableCopies() {
    return tableCopies;
  }

  /** The key's four G1 base sets, in the order of the MSMs and of the msm_tables layout: a, b_g1, l, h. */
  private List<G1Bases> g1Sets() {
    return List.of(pk.aQuery(), pk.bG1Query(), pk.lQuery(), pk.hQuery());
  }

  /**
   * Where each base set and its table lie in the {@value #MSM_TABLES} buffer, set by set: the bases (96 bytes each),
   * then their table ({@link ProvingKernels#tableBytes}); {@code bytes} is the end of the last.
   */
  private record TableLayout(long[] basesAt, long[] tableAt, long bytes) {
    TableLayout {
      if (basesAt.length != tableAt.length || bytes < 0) {
        throw new IllegalArgumentException("a table layout needs one table per base set and a size, got " + basesAt.length
            + " and " + tableAt.length + ", " + bytes + " bytes");
      }
    }
  }

  private TableLayout tableLayout(ProvingKernels kernels) {
    List<G1Bases> sets = g1Sets();
    long[] basesAt = new long[sets.size()];
    long[] tableAt = new long[sets.size()];
    long at = 0;
    for (int i = 0; i < sets.size(); i++) {
      basesAt[i] = at;
      at += (long) sets.get(i).size() * ProvingKernels.G1_AFFINE_BYTES;
      tableAt[i] = at;
      at += kernels.tableBytes(sets.get(i).size(), tableCopies);
    }
    return new TableLayout(basesAt, tableAt, at);
  }

  /** Bytes the {@value #MSM_TABLES} buffer needs on {@code kernels}' device: the four base sets and their tables. */
  public long msmTablesBytes(ProvingKernels kernels) {
    return tableCopies > 0 ? tableLayout(kernels).bytes() : 0;
  }

  /** Milliseconds the MSM tables took to build (bases written and tables built, once per key), or NaN if not built. */
  public double msmTablesBuildMillis() {
    return tablesBuildMillis;
  }

  /**
   * Why a role's msm steps do not fit the tables setting, if they do not: with tables every {@code kernel msm} or
   * {@code kernel ntt_msm} must use the {@value #MSM_TABLES} buffer (so the model sees the MSM reading it), without
   * them none may (the design would hold a buffer nothing fills).
   */
  public static Optional<String> msmTablesRoleProblem(Role role, int copies) {
    for (Step step : Steps.flatten(role.body())) {
      if (step instanceof Kernel k && (k.name().equals(Stage.MSM.stepName) || k.name().equals(Stage.NTT_MSM.stepName))) {
        boolean uses = k.uses().contains(MSM_TABLES);
        if (copies > 0 && !uses) {
          return Optional.of("role " + role.name() + ": --msm-tables " + copies + ": step `" + k.text() + "` does not use "
              + MSM_TABLES + "; the MSMs read their tables there, so the step needs `uses ... " + MSM_TABLES + "` and the design "
              + "a `buffer " + MSM_TABLES + " SIZE` (e.g. designs/reservation-msm-tables.design)");
        }
        if (copies == 0 && uses) {
          return Optional.of("role " + role.name() + ": step `" + k.text() + "` uses " + MSM_TABLES + ", but MSM tables are off: "
              + "run with --msm-tables K (e.g. 13 at 2^20) or use a design whose msm steps do not use " + MSM_TABLES);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Why a {@value #MSM_TABLES} buffer of {@code declaredBytes} (0: none declared) cannot hold this key's tables on
   * {@code kernels}' device, if it cannot: the one size check, for prove's input check and for the build.
   */
  public Optional<String> msmTablesSizeProblem(long declaredBytes, ProvingKernels kernels) {
    if (tableCopies == 0) {
      return Optional.empty();
    }
    long need = msmTablesBytes(kernels);
    if (declaredBytes == 0) {
      return Optional.of("--msm-tables " + tableCopies + " needs a design line `buffer " + MSM_TABLES + " SIZE` of at least "
          + need + " bytes (" + String.format(Locale.ROOT, "%.1f MiB", need / (double) Sizes.MIB) + "): the key's 4 G1 base sets "
          + "and their tables, device memory for the whole run");
    }
    if (declaredBytes < need) {
      return Optional.of("buffer " + MSM_TABLES + " is " + declaredBytes + " bytes, the key's 4 G1 base sets and their tables of "
          + tableCopies + " copies need " + need + " bytes (" + String.format(Locale.ROOT, "%.1f MiB needed, %.1f MiB declared",
          need / (double) Sizes.MIB, declaredBytes / (double) Sizes.MIB) + "): declare a larger buffer or use fewer copies");
    }
    return Optional.empty();
  }

  /**
   * Bytes of the {@value #G2_BASES} buffer: the b_g2 query's m affine G2 points, and with {@link BG2#SPLIT} the 0/1 mask
   * (m scalars) after them.
   */
  public long g2BasesBytes() {
    return (long) m * (ProvingKernels.G2_AFFINE_BYTES + (bG2Mode == BG2.SPLIT ? ProvingKernels.SCALAR_BYTES : 0));
  }

  /** Bytes of the scratch buffer: H. */
  public long scratchBytes() {
    return sizes.hScratchBytes();
  }

  /** A job's progress through the stages. */
  private final class State implements JobState {
    final Partition partition;
    final SplittableRandom rng;
    Witness witness;
    Future<G2> bG2Task;
    Synthesized synthesized;
    boolean staged;
    boolean hOnDevice;
    MsmResults msm;
    G2 bG2;
    /** With {@link BG2#SPLIT}: the device's sum of the bases whose scalar is 1. */
    G2 bG2Ones;
    Proof proof;

    State(Partition partition) {
      this.partition = partition;
      this.rng = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + partition.index());
    }

    @Override
    public Object result() {
      return proof;
    }
  }

  @Override
  public JobState start(Job job) {
    if (!(job.payload() instanceof Partition p)) {
      throw new IllegalArgumentException("job " + job.id() + " carries no partition: " + job.payload());
    }
    return new State(p);
  }

  @Override
  public long bytes(String buffer, long designBytes) {
    return switch (buffer) {
      case "staged" -> stagedBytes();
      case "scratch" -> scratchBytes();
      case G2_BASES -> g2BasesBytes();
      default -> designBytes;
    };
  }

  /**
   * Refuses a role with a {@code cpu} or {@code kernel} step that names no {@link Stage} of its kind: such a step
   * would run without proving work, which a design meant for this workload never wants.
   */
  @Override
  public void bind(Role role) {
    for (Step step : Steps.flatten(role.body())) { // the branches of an `if free` block run too
      if (step instanceof Cpu c) {
        stage(c.name(), false, role);
      } else if (step instanceof Kernel k) {
        stage(k.name(), true, role);
      }
    }
    bG2Problem(role, bG2Mode).or(() -> msmTablesRoleProblem(role, tableCopies)).ifPresent(problem -> {
      throw new IllegalArgumentException(problem);
    });
  }

  /**
   * Why a role cannot run b_g2_msm where {@code mode} puts it, if it cannot: on the GPU it needs a {@code kernel
   * b_g2_msm} step (device work the model sees, with its buffers counted); split, a {@code kernel b_g2_ones} step and a
   * {@code cpu b_g2_msm} step (where the host's tail is joined); on the CPU neither kernel step. The one place these
   * combinations are decided, for {@link #bind} and for prove's input check.
   */
  public static Optional<String> bG2Problem(Role role, BG2 mode) {
    boolean kernelBG2 = false;
    boolean kernelOnes = false;
    boolean cpuBG2 = false;
    for (Step step : Steps.flatten(role.body())) { // a step inside an `if free` block counts too
      if (step instanceof Cpu c && c.name().equals(Stage.B_G2_MSM.stepName)) {
        cpuBG2 = true;
      } else if (step instanceof Kernel k && k.name().equals(Stage.B_G2_MSM_KERNEL.stepName)) {
        kernelBG2 = true;
      } else if (step instanceof Kernel k && k.name().equals(Stage.B_G2_ONES.stepName)) {
        kernelOnes = true;
      }
    }
    String prefix = "role " + role.name() + ": ";
    String has = "this role has " + describe(kernelBG2, kernelOnes, cpuBG2);
    return switch (mode) {
      case GPU -> kernelBG2 && !kernelOnes ? Optional.empty() : Optional.of(prefix + (kernelOnes
          ? "the design splits b_g2_msm (`kernel b_g2_ones`), but b_g2_msm is set to run whole on the GPU: use --b-g2 split, "
              + "or a design with `kernel b_g2_msm uses staged " + G2_BASES + "` (e.g. designs/single-lock-g2-gpu.design)"
          : "b_g2_msm on the GPU needs a design step `kernel b_g2_msm uses staged " + G2_BASES + "` (the " + G2_BASES
              + " buffer holds the G2 bases, counted in the design's vram); " + has + ", so its model would never see the G2 MSM "
              + "on the device (e.g. designs/single-lock-g2-gpu.design has one)"));
      case SPLIT -> kernelOnes && cpuBG2 && !kernelBG2 ? Optional.empty() : Optional.of(prefix + "b_g2_msm split needs a "
          + "design step `kernel b_g2_ones uses " + G2_BASES + "` (the sum of the bases whose scalar is 1, on the device) "
          + "and a step `cpu b_g2_msm` (where the host's full-scalar tail is joined), and no `kernel b_g2_msm`; " + has
          + " (e.g. designs/single-lock-g2-split.design has both" + (kernelBG2 ? "; or run this design with --b-g2 gpu" : "")
          + (!kernelOnes && !kernelBG2 ? "; or run this design with --b-g2 cpu" : "") + ")");
      case CPU, INLINE -> !kernelBG2 && !kernelOnes ? Optional.empty() : Optional.of(prefix + "the design runs " + (kernelBG2
          ? "b_g2_msm as a kernel, but b_g2_msm is set to run on the CPU: run it on the GPU (--b-g2 gpu) or use a design with "
              + "`cpu b_g2_msm`"
          : "the ones of b_g2_msm as a kernel (`kernel b_g2_ones`), but b_g2_msm is set to run whole on the CPU: split it "
              + "(--b-g2 split) or use a design with only `cpu b_g2_msm`"));
    };
  }

  /** Which b_g2 steps a role has, for {@link #bG2Problem}'s messages. */
  private static String describe(boolean kernelBG2, boolean kernelOnes, boolean cpuBG2) {
    List<String> steps = new ArrayList<>();
    if (kernelBG2) {
      steps.add("`kernel b_g2_msm`");
    }
    if (kernelOnes) {
      steps.add("`kernel b_g2_ones`");
    }
    if (cpuBG2) {
      steps.add("`cpu b_g2_msm`");
    }
    return steps.isEmpty() ? "no b_g2 step" : "only " + String.join(" and ", steps);
  }

  private static Stage stage(String name, boolean kernel, Role role) {
    return Stage.of(name, kernel).orElseThrow(() -> new IllegalArgumentException("role " + role.name() + ": the proving workload "
        + "has no " + (kernel ? "kernel" : "cpu") + " stage '" + name + "' (it has " + String.join(", ", Stage.names(kernel)) + ")"));
  }

  /** The stage of a step the engine runs; {@link #bind} has refused every other name. */
  private static Stage stage(String name, boolean kernel) {
    return Stage.of(name, kernel).orElseThrow(() -> new IllegalStateException("no " + (kernel ? "kernel" : "cpu") + " stage '"
        + name + "': the pipeline did not bind this workload to its role"));
  }

  @Override
  public void cpu(String name, JobState js) {
    State s = (State) js;
    Stage stage = stage(name, false);
    Runnable work = switch (stage) {
      case SYNTHESIZE -> () -> {
        HostWork h = reuseHostWork ? shared(s.partition) : synthesize(s.partition);
        s.witness = h.witness();
        s.synthesized = h.synthesized();
        s.bG2Task = h.bG2();
      };
      case B_G2_MSM -> () -> s.bG2 = hostBG2(s);
      case EPILOGUE -> () -> {
        require(s.msm != null, "epilogue before msm");
        if (s.bG2 == null) {
          require(bG2Mode != BG2.GPU, "epilogue before kernel b_g2_msm");
          s.bG2 = hostBG2(s);
        }
        if (bG2Mode == BG2.SPLIT) {
          require(s.bG2Ones != null, "epilogue before kernel b_g2_ones");
        }
        G2 bG2 = bG2Mode == BG2.SPLIT ? s.bG2Ones.add(s.bG2) : s.bG2; // split: the device's ones plus the host's tail
        timed(name, () -> s.proof = Prover.epilogue(pk, s.msm, bG2, s.rng));
      };
      case STAGE, H2D, NTT_H, MSM, NTT_MSM, B_G2_MSM_KERNEL, B_G2_ONES -> throw new IllegalStateException("kernel stage " + name + " as a cpu step");
    };
    work.run();
  }

  /**
   * Synthesis of a partition (timed), with its G2 MSM started on a thread of its own: the whole of it with
   * {@link BG2#CPU}, the full-scalar tail with {@link BG2#SPLIT} (both timed as b_g2_msm).
   */
  private HostWork synthesize(Partition p) {
    long t0 = System.nanoTime();
    Witness w = circuit.witness(p.publicInputs(), p.privateSeeds());
    Synthesized syn = Prover.synthesize(circuit, w);
    record(Stage.SYNTHESIZE.stepName, t0);
    if (bG2Mode == BG2.GPU || bG2Mode == BG2.INLINE) {
      return new HostWork(w, syn, null); // the design's kernel b_g2_msm (GPU) or cpu b_g2_msm step (INLINE) computes it
    }
    Future<G2> bG2 = bG2Threads.submit(() -> {
      long t = System.nanoTime();
      G2 r = bG2Mode == BG2.SPLIT ? Prover.bG2Tail(pk, w) : Prover.bG2Msm(pk, w);
      record(Stage.B_G2_MSM.stepName, t);
      return r;
    });
    return new HostWork(w, syn, bG2);
  }

  /**
   * With reuseHostWork: computes p's inputs' synthesis and G2 MSM now and waits for both, so that a run started
   * afterwards reuses them from its first partition on and its wall clock covers the GPU-bound regime only (otherwise
   * every worker's first partition waits in b_g2_msm for the one shared G2 MSM, with the GPU idle).
   */
  public void prepare(Partition p) {
    if (!reuseHostWork) {
      throw new IllegalStateException("prepare needs a workload that reuses host work");
    }
    HostWork h = shared(p);
    if (h.bG2() != null) {
      awaitBG2(h.bG2());
    }
  }

  /** The host work for p's inputs: computed here if no job has started it, else the other job's (waited for). */
  private HostWork shared(Partition p) {
    CompletableFuture<HostWork> mine = new CompletableFuture<>();
    CompletableFuture<HostWork> first = hostWork.putIfAbsent(List.of(p.publicInputs(), p.privateSeeds()), mine);
    if (first != null) {
      try {
        return first.join();
      } catch (CompletionException e) {
        throw new IllegalStateException(
            "partition " + p.index() + ": the shared synthesis of its inputs failed in another job: " + e.getCause(), e.getCause());
      }
    }
    try {
      HostWork h = synthesize(p);
      mine.complete(h);
      return h;
    } catch (RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    }
  }

  @Override
  public KernelRun kernel(String name, String owner, Device device, List<DeviceBuffer> uses, Map<String, DeviceBuffer> buffers,
      JobState js) {
    ProvingKernels k = kernelsOn(device);
    State s = (State) js;
    Runnable work = switch (stage(name, true)) {
      case STAGE, H2D -> () -> stage(k, buffers, s);
      case NTT_H -> () -> nttH(k, owner, buffers, s);
      case MSM -> () -> msm(k, owner, buffers, s);
      case NTT_MSM -> () -> {
        nttH(k, owner, buffers, s);
        msm(k, owner, buffers, s);
      };
      case B_G2_MSM_KERNEL -> () -> bG2OnDevice(k, owner, buffers, s);
      case B_G2_ONES -> () -> bG2OnesOnDevice(k, owner, buffers, s);
      case SYNTHESIZE, B_G2_MSM, EPILOGUE -> throw new IllegalStateException("cpu stage " + name + " as a kernel");
    };
    return device.launch(owner, name, uses, work);
  }

  /** The kernels on {@code device}, made on first use; they must work on that very device. */
  private ProvingKernels kernelsOn(Device device) {
    ProvingKernels k = kernels.computeIfAbsent(device, kernelsOn);
    if (k.device() != device) {
      throw new IllegalStateException("the engine runs on " + device.description() + ", the proving kernels on "
          + k.device().description());
    }
    return k;
  }

  /** Stops the G2 MSM threads; jobs still running fail. */
  @Override
  public void close() {
    bG2Threads.shutdownNow();
  }

  private static void require(boolean ok, String what) {
    if (!ok) {
      throw new IllegalStateException("proving stages out of order: " + what);
    }
  }

  private static DeviceBuffer buffer(Map<String, DeviceBuffer> buffers, String name) {
    DeviceBuffer b = buffers.get(name);
    require(b != null, "buffer " + name + " is not allocated");
    return b;
  }

  /** Copies a, b, c, the witness and the G1 queries into the staged buffer. */
  private void stage(ProvingKernels kernels, Map<String, DeviceBuffer> buffers, State s) {
    if (s.staged) {
      return;
    }
    timed(Stage.STAGE.stepName, () -> upload(kernels, buffers, s));
  }

  private void upload(ProvingKernels kernels, Map<String, DeviceBuffer> buffers, State s) {
    require(s.synthesized != null, "stage before synthesize");
    DeviceBuffer staged = buffer(buffers, "staged");
    kernels.writeScalars(staged, 0, s.synthesized.a());
    kernels.writeScalars(staged, n, s.synthesized.b());
    kernels.writeScalars(staged, 2 * n, s.synthesized.c());
    long[] w = Fr.newVector(m);
    for (int i = 0; i < m; i++) {
      s.witness.get(i).writeTo(w, i);
    }
    kernels.writeScalars(staged, 3 * n, w);
    if (tableCopies == 0) { // with tables the bases are resident in msm_tables
      kernels.writeBases(staged, aOffset(), pk.aQuery());
      kernels.writeBases(staged, bOffset(), pk.bG1Query());
      kernels.writeBases(staged, lOffset(), pk.lQuery());
      kernels.writeBases(staged, hOffset(), pk.hQuery());
    }
    s.staged = true;
  }

  private long aOffset() {
    return (3L * n + m) * ProvingKernels.SCALAR_BYTES;
  }

  private long bOffset() {
    return aOffset() + sizes.aBasesBytes();
  }

  private long lOffset() {
    return bOffset() + sizes.bG1BasesBytes();
  }

  private long hOffset() {
    return lOffset() + sizes.lBasesBytes();
  }

  /**
   * ntt_h: H from the staged a, b, c by the device's quotient kernel, into scratch; its top coefficient is read back
   * to check that the witness satisfies the circuit.
   */
  private void nttH(ProvingKernels kernels, String owner, Map<String, DeviceBuffer> buffers, State s) {
    stage(kernels, buffers, s);
    DeviceBuffer staged = buffer(buffers, "staged");
    DeviceBuffer scratch = buffer(buffers, "scratch");
    timed(Stage.NTT_H.stepName, () -> {
      kernels.quotient(owner, staged, 0, circuit.logN(), scratch).await();
      Prover.requireDivisible(kernels.readScalars(scratch, n - 1, 1), 0);
      s.hOnDevice = true;
    });
  }

  /**
   * b_g2_msm on the device: the b_g2 query into the {@value #G2_BASES} buffer, the witness staged (by this step if no
   * stage step ran yet), and the G2 MSM by the proving kernels; its result is what the epilogue uses.
   */
  private void bG2OnDevice(ProvingKernels kernels, String owner, Map<String, DeviceBuffer> buffers, State s) {
    stage(kernels, buffers, s);
    DeviceBuffer staged = buffer(buffers, "staged");
    DeviceBuffer g2 = buffer(buffers, G2_BASES);
    timed(Stage.B_G2_MSM.stepName, () -> {
      kernels.writeG2Bases(g2, 0, pk.bG2Query());
      s.bG2 = kernels.g2Msm(owner, g2, 0, staged, 3 * n).result();
    });
  }

  /**
   * b_g2_ones on the device: the b_g2 query into the {@value #G2_BASES} buffer, the witness's 0/1 mask after it, and
   * the G2 MSM of the two by the proving kernels, which is the sum of the bases whose scalar is 1 (cuzk's batch
   * additions); the epilogue adds the host's tail to it.
   */
  private void bG2OnesOnDevice(ProvingKernels kernels, String owner, Map<String, DeviceBuffer> buffers, State s) {
    require(s.witness != null, "b_g2_ones before synthesize");
    DeviceBuffer g2 = buffer(buffers, G2_BASES);
    long basesBytes = (long) m * ProvingKernels.G2_AFFINE_BYTES;
    int maskAt = Math.toIntExact(basesBytes / ProvingKernels.SCALAR_BYTES);
    timed(Stage.B_G2_ONES.stepName, () -> {
      kernels.writeG2Bases(g2, 0, pk.bG2Query());
      kernels.writeScalars(g2, maskAt, Prover.bG2OnesMask(s.witness));
      s.bG2Ones = kernels.g2Msm(owner, g2, 0, g2, maskAt).result();
    });
  }

  /**
   * msm: the four G1 MSMs (a, b_g1, l, h) as device kernels: the scalars are the staged witness (l from the first
   * private variable on) and H in scratch; the bases are the staged queries, or with tables the bases and tables
   * resident in msm_tables (built first if they are not yet).
   */
  private void msm(ProvingKernels kernels, String owner, Map<String, DeviceBuffer> buffers, State s) {
    require(s.hOnDevice, "msm before ntt_h");
    DeviceBuffer staged = buffer(buffers, "staged");
    DeviceBuffer scratch = buffer(buffers, "scratch");
    DeviceBuffer[] scalars = {staged, staged, staged, scratch};
    int[] scalarsAt = {3 * n, 3 * n, 3 * n + circuit.publicInputs() + 1, 0};
    DeviceBuffer tables = tableCopies > 0 ? buffer(buffers, MSM_TABLES) : null;
    TableLayout layout = tables != null ? buildTables(kernels, owner, tables) : null;
    long[] stagedBasesAt = {aOffset(), bOffset(), lOffset(), hOffset()};
    timed(Stage.MSM.stepName, () -> {
      G1[] r = new G1[4];
      for (int i = 0; i < 4; i++) {
        r[i] = (layout == null
            ? kernels.msm(owner, staged, stagedBasesAt[i], scalars[i], scalarsAt[i])
            : kernels.msm(owner, tables, layout.basesAt()[i], scalars[i], scalarsAt[i], tables, layout.tableAt()[i])).result();
      }
      s.msm = new MsmResults(r[0], r[1], r[2], r[3]);
    });
  }

  /**
   * The key's G1 bases written into {@code tables} and their MSM tables built there, once per buffer and device
   * generation (the first msm step to get here builds them, the others wait; after a reopen, again), timed apart from
   * the msm stage; refuses a buffer too small for them.
   */
  private TableLayout buildTables(ProvingKernels kernels, String owner, DeviceBuffer tables) {
    TableLayout layout = tableLayout(kernels);
    synchronized (tablesBuilt) {
      int generation = kernels.generation();
      if (Integer.valueOf(generation).equals(tablesBuilt.get(tables))) {
        return layout;
      }
      msmTablesSizeProblem(tables.bytes(), kernels).ifPresent(problem -> {
        throw new IllegalStateException(problem);
      });
      long t = System.nanoTime();
      List<G1Bases> sets = g1Sets();
      for (int i = 0; i < sets.size(); i++) {
        kernels.writeBases(tables, layout.basesAt()[i], sets.get(i));
        kernels.msmTable(owner, tables, layout.basesAt()[i], tables, layout.tableAt()[i], tableCopies).await();
      }
      tablesBuildMillis = (System.nanoTime() - t) / 1e6;
      tablesBuilt.put(tables, generation);
      return layout;
    }
  }
}

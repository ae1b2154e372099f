package dev.interlock.cli;

import dev.interlock.gpu.cuda.CudaDevice;
import dev.interlock.gpu.cuda.KernelScratch;
import dev.interlock.impl.api.Device;
import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.Event;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.KernelBusy;
import dev.interlock.impl.engine.LockHolds;
import dev.interlock.impl.engine.Overlaps;
import dev.interlock.impl.engine.RetryPolicy;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.pipeline.Workload;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Model;
import dev.interlock.model.state.Phase;
import dev.interlock.model.step.Interval;
import dev.interlock.prover.Circuit;
import dev.interlock.prover.G1FixedBase;
import dev.interlock.prover.KeyCache;
import dev.interlock.prover.KeyFileException;
import dev.interlock.prover.PartitionSizes;
import dev.interlock.prover.Proof;
import dev.interlock.prover.Verifier;
import dev.interlock.prover.WitnessShape;
import dev.interlock.workload.CpuProvingKernels;
import dev.interlock.workload.FaultyProvingKernels;
import dev.interlock.workload.ProvingKernels;
import dev.interlock.workload.ProvingWorkload;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code interlock prove}: a Groth16 proof request of P partitions on the engine, under a lock design, verified. */
@Command(name = "prove", mixinStandardHelpOptions = true,
    description = "Prove a request of P partitions of a synthetic Groth16 circuit (BLS12-381) on the reference engine under a design; "
        + "print a timeline and per-stage times, and verify every proof. Exit 0 when all verify, 1 otherwise, 2 on bad input.")
final class ProveCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--design", required = true, paramLabel = "FILE", description = "The lock design the workers follow.")
  Path designFile;

  @Mixin
  DesignOptions design = new DesignOptions();

  @Option(names = "--n", paramLabel = "N", description = "Constraints per partition, a power of two: 4096 or 2^12 (default: ${DEFAULT-VALUE}).")
  String n = "2^10";

  @Option(names = "--partitions", paramLabel = "P", description = "Partitions in the request (default: ${DEFAULT-VALUE}).")
  int partitions = 10;

  @Option(names = "--workers", paramLabel = "W", description = "Workers of the role (default: the design's).")
  Integer workers;

  @Option(names = "--role", paramLabel = "ROLE", description = "The role that proves (default: the first).")
  String role;

  @Option(names = "--public-inputs", paramLabel = "K", description = "Public inputs per partition (default: ${DEFAULT-VALUE}).")
  int publicInputs = 2;

  @Option(names = "--keys", paramLabel = "DIR", description = "Where proving and verifying keys are cached (default: ${DEFAULT-VALUE}).")
  Path keys = Path.of(".interlock", "keys");

  @Option(names = "--seed", paramLabel = "S", description = "Seed of the witnesses and randomizers (default: from the clock, printed).")
  Long seed;

  @Option(names = "--no-timeline", description = "Leave out the TIMELINE lines.")
  boolean noTimeline;

  @Mixin
  RunOutputs outputs = new RunOutputs();

  @Option(names = "--device", paramLabel = "KIND", description = "simulated (kernels on the CPU, default) or gpu (CUDA kernels and real VRAM on device 0).")
  String device = "simulated";

  @Option(names = "--gpu-budget", paramLabel = "SIZE", description = "With --device gpu: the VRAM left to the run, e.g. 1GiB (default: the design's vram). "
      + "A ballast takes the rest of the card, so out-of-memory is the driver's.")
  String gpuBudget;

  @Option(names = "--reuse-host-work", description = "Benchmark knob: every partition gets the same inputs, so synthesize and "
      + "b_g2_msm run once, before the run's clock starts, and all partitions reuse them; the GPU section then bounds throughput. Each proof is still made "
      + "on the device with its own randomizers, and verified.")
  boolean reuseHostWork;

  @Option(names = "--b-g2", paramLabel = "WHERE", description = "cpu (default: the G2 MSM on the host's cores, from the end "
      + "of synthesis to the design's `cpu b_g2_msm`), gpu (device work at the design's `kernel b_g2_msm uses staged g2_bases` "
      + "step, e.g. designs/single-lock-g2-gpu.design) or split (as in cuzk: the sum of the bases whose scalar is 1 at the "
      + "design's `kernel b_g2_ones uses g2_bases` step, the full-scalar tail on the host, joined at `cpu b_g2_msm`, e.g. "
      + "designs/single-lock-g2-split.design) or inline (the whole G2 MSM at the design's `cpu b_g2_msm` step, on the worker's "
      + "thread: nothing runs beside the design's steps, as simulate reads them). A design without the steps the mode needs "
      + "is an input error.")
  String bG2 = "cpu";

  @Option(names = "--msm-tables", paramLabel = "K", description = "Precomputed MSM tables of K copies of each G1 base (at least 2; "
      + "the GPU uses at most one per window, e.g. 13 at 2^20): built once at the first msm step into the design's `buffer "
      + "msm_tables SIZE`, which the msm or ntt_msm step must use and which must hold the key's 4 G1 base sets and their "
      + "tables (checked: exit 2); every partition's G1 MSMs then use them. Default: off.")
  Integer msmTables;

  @Option(names = "--witness", paramLabel = "KIND", description = "field (every private variable a full-width field element; "
      + "default) or filecoin (mostly 0/1, like the bit decompositions of Filecoin's circuits, with --full-scalars of them full-width). "
      + "The CPU's MSMs over a mostly 0/1 witness (b_g2_msm, and a, b_g1, l on the simulated device) are split into batch "
      + "additions of the bases whose scalar is 1 and a tail MSM over the full-width scalars.")
  String witness = "field";

  @Option(names = "--full-scalars", paramLabel = "PERCENT", description = "With --witness filecoin: the share of the constrained "
      + "variables that are full-width, in percent, e.g. 1% or 0.5 (default: 1%, an assumption: see docs/cli.md).")
  String fullScalars;

  @Mixin
  FaultOptions faultOptions = new FaultOptions();

  @Mixin
  DurationsOut durationsOut = new DurationsOut();

  @Option(names = "--overlap", arity = "2", paramLabel = "INTERVAL", description = "Report how often one worker entered the first "
      + "interval while another was inside the second, or the other way round (what check --overlap asks of the model).")
  List<String> overlap;

  @Override
  public Integer call() {
    int logN = logN(n);
    if (partitions < 1) {
      throw new CliError("--partitions must be at least 1, got " + partitions);
    }
    Design d = design.load(designFile);
    String r = role != null ? role : d.roles().get(0).name();
    if (d.role(r).isEmpty()) {
      throw new CliError("--role: no role '" + r + "' in design " + d.name());
    }
    ProvingWorkload.BG2 bG2Mode = bG2Mode();
    ProvingWorkload.bG2Problem(d.role(r).orElseThrow(), bG2Mode).ifPresent(problem -> {
      throw new CliError(designFile + ": --b-g2 " + bG2Mode.optionValue() + ": " + problem);
    });
    if (msmTables != null && msmTables < 2) {
      throw new CliError("--msm-tables must be at least 2 (copies of each base), got " + msmTables);
    }
    ProvingWorkload.msmTablesRoleProblem(d.role(r).orElseThrow(), tableCopies()).ifPresent(problem -> {
      throw new CliError(designFile + ": " + problem);
    });
    if (workers != null) {
      if (workers < 1) {
        throw new CliError("--workers must be at least 1, got " + workers);
      }
      d = d.withThreads(r, workers);
    }
    if (overlap != null) {
      List<String> names = new Model(d).intervalNames();
      for (String name : overlap) {
        if (!names.contains(name)) {
          throw new CliError(designFile + ": --overlap: no interval '" + name + "' in design " + d.name() + " (intervals: "
              + String.join(", ", names) + ")");
        }
      }
    }
    WitnessShape shape = witnessShape();
    Circuit circuit;
    try {
      circuit = Circuit.synthetic(new Circuit.Params(logN, publicInputs, 1, shape));
    } catch (IllegalArgumentException e) {
      throw new CliError("--n/--public-inputs: " + e.getMessage());
    }
    long s = seed != null ? seed : System.currentTimeMillis();
    Faults faults = faultOptions.faults();
    faultOptions.retry();
    outputs.checkWritable();
    durationsOut.checkWritable(outputs.force);
    PrintWriter out = spec.commandLine().getOut();
    ProvingKernels kernels = faults.none() ? openDevice(d, r, circuit, out) : faultyKernels(d, r, circuit, out, faults);
    try (Device dev = kernels.device()) {
      return prove(d, r, circuit, s, logN, kernels, out, bG2Mode);
    }
  }

  /**
   * The kernels, and through them the device, the run uses: CPU kernels over a SimulatedDevice of the design's vram,
   * or the GPU with a budget and kernel scratch.
   */
  private ProvingKernels openDevice(Design d, String r, Circuit circuit, PrintWriter out) {
    switch (device) {
      case "simulated":
        if (gpuBudget != null) {
          throw new CliError("--gpu-budget needs --device gpu");
        }
        return new CpuProvingKernels(new SimulatedDevice(d.vram()));
      case "gpu":
        long budget = d.vram();
        if (gpuBudget != null) {
          try {
            budget = Sizes.parseOrThrow(gpuBudget);
          } catch (IllegalArgumentException e) {
            throw new CliError("--gpu-budget: " + e.getMessage());
          }
        }
        int threads = d.role(r).orElseThrow().threads();
        KernelScratch scratch = new KernelScratch(circuit.logN(), Math.max(circuit.size(), circuit.numVariables()), threads);
        CudaDevice gpu = GpuDevices.open("--device gpu", budget, scratch);
        long partition = PartitionSizes.of(circuit).totalBytes();
        out.printf(Locale.ROOT, "gpu       %s, budget %s (one partition needs %s: %s), kernel scratch outside it: %s%n", gpu.name(),
            Sizes.format(budget), mib(partition), partition <= budget ? "fits" : "does NOT fit", scratch);
        return gpu.provingKernels();
      default:
        throw new CliError("--device must be simulated or gpu, got '" + device + "'");
    }
  }

  /** Bytes of the design's {@code buffer msm_tables} line; 0 when it has none. */
  private static long declaredTablesBytes(Design d) {
    return d.buffers().stream().filter(b -> b.name().equals(ProvingWorkload.MSM_TABLES)).mapToLong(b -> b.bytes()).findFirst()
        .orElse(0);
  }

  /** Copies per base of the MSM tables --msm-tables asks for; 0 without tables. */
  private int tableCopies() {
    return msmTables == null ? 0 : msmTables;
  }

  /** The --b-g2 option's mode. */
  private ProvingWorkload.BG2 bG2Mode() {
    for (ProvingWorkload.BG2 m : ProvingWorkload.BG2.values()) {
      if (m.optionValue().equals(bG2)) {
        return m;
      }
    }
    throw new CliError("--b-g2 must be cpu, gpu, split or inline, got '" + bG2 + "'");
  }

  /**
   * The kernels wrapped with injected faults: the first opening prints what {@link #openDevice} prints, and each
   * reopening after a poison opens new kernels with a new device (for CUDA: a new context) the same way.
   */
  private ProvingKernels faultyKernels(Design d, String r, Circuit circuit, PrintWriter out, Faults faults) {
    PrintWriter[] to = {out};
    return new FaultyProvingKernels(() -> {
      ProvingKernels k = openDevice(d, r, circuit, to[0]);
      to[0] = new PrintWriter(java.io.Writer.nullWriter());
      return k;
    }, faults);
  }

  private int prove(Design d, String r, Circuit circuit, long s, int logN, ProvingKernels kernels, PrintWriter out,
      ProvingWorkload.BG2 bG2Mode) {
    long t0 = System.nanoTime();
    KeyCache.Entry entry;
    G1FixedBase fixedBase = kernels.fixedBase();
    try {
      entry = KeyCache.loadOrCreate(keys, circuit, 1, fixedBase);
    } catch (KeyFileException e) {
      throw new CliError(e.getMessage());
    }
    out.printf(Locale.ROOT, "circuit   N=2^%d constraints, %d variables, %d public inputs; keys %s (%s, %.0f ms)%n", logN,
        circuit.numVariables(), publicInputs, entry.file(), entry.outcome().name().toLowerCase(Locale.ROOT), (System.nanoTime() - t0) / 1e6);
    int full = publicInputs + Circuit.PRIVATE_SEEDS + circuit.fullWidthRows();
    if (circuit.params().witness().kind() == WitnessShape.Kind.FIELD) {
      out.printf(Locale.ROOT, "witness   field: every variable but the one full-width (%d of %d)%n", full, circuit.numVariables());
    } else {
      out.printf(Locale.ROOT, "witness   %s: %d of %d variables full-width (%.2f%%: the inputs, the seeds and %d full-width rows), "
              + "the others 0 or 1 (%d of them free bits); MSMs over it on the CPU split into batch additions and a tail MSM%n",
          circuit.params().witness(), full, circuit.numVariables(), 100.0 * full / circuit.numVariables(), circuit.fullWidthRows(),
          circuit.freeBitRows());
    }
    SplittableRandom rng = new SplittableRandom(s);
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    ProvingWorkload.Partition shared = reuseHostWork ? ProvingWorkload.Partition.random(0, circuit, rng.split()) : null;
    for (int i = 0; i < partitions; i++) {
      parts.add(shared != null
          ? new ProvingWorkload.Partition(i, shared.publicInputs(), shared.privateSeeds())
          : ProvingWorkload.Partition.random(i, circuit, rng.split()));
    }
    try (ProvingWorkload workload = new ProvingWorkload(circuit, entry.keys().pk(), device -> kernels, s, reuseHostWork,
        bG2Mode, tableCopies())) {
      workload.msmTablesSizeProblem(declaredTablesBytes(d), kernels).ifPresent(problem -> {
        throw new CliError(designFile + ": " + problem);
      });
      return run(d, r, parts, workload, entry, kernels, out, s);
    }
  }

  private int run(Design d, String r, List<ProvingWorkload.Partition> parts, ProvingWorkload workload, KeyCache.Entry entry,
      ProvingKernels kernels, PrintWriter out, long s) {
    Device dev = kernels.device();
    ProvingWorkload.Partition shared = reuseHostWork ? parts.get(0) : null; // every partition has its inputs
    if (reuseHostWork) {
      long h0 = System.nanoTime();
      workload.prepare(shared);
      out.printf(Locale.ROOT, "host work every partition has the same inputs: synthesize and b_g2_msm ran once before the run "
          + "(%.0f ms), all partitions reuse them%n", (System.nanoTime() - h0) / 1e6);
    }
    out.printf(Locale.ROOT, "request   %d partitions, seed %d (rerun: --seed %d); design %s, %s%n", partitions, s, s, d.name(),
        d.parametersLine());
    Faults faults = dev instanceof FaultyDevice f ? f.faults() : Faults.NONE;
    RetryPolicy retry = faultOptions.retry();
    FaultSummary.header(out, faults, retry);
    RunReport report;
    durationsOut.start();
    report = new Engine(dev, StepGate.FREE, 100, retry).start(d, designFile.toString(),
        role0 -> new InterpretedPipeline(role0, false, role0.name().equals(r) ? workload : Workload.NONE),
        Map.of(r, parts)).await();
    outputs.writeTimeline(report, dev);
    durationsOut.write(report, outputs.force, "interlock prove --design " + designFile + " --n " + n + " --partitions "
        + partitions + " --witness " + witness + " --b-g2 " + bG2 + " --device " + device + " (" + d.parametersLine() + ")");
    if (outputs.html != null) {
      // workers take partitions from one queue, so a worker may run more jobs than the design's count: the view's model
      // lets each run as many as the busiest one took, so that it follows the whole run
      int busiest = report.events().stream().collect(Collectors.groupingBy(Event::thread, Collectors.mapping(Event::job,
          Collectors.toSet()))).values().stream().mapToInt(Set::size).max().orElse(1);
      HtmlViews.run(outputs.html, outputs.force, "prove", d.withJobs(r, busiest), designFile.toString(), report);
    }
    if (!noTimeline) {
      for (Event e : report.events()) {
        out.printf(Locale.ROOT, "TIMELINE %10.3f ms  %-34s job %-3d %s%n", e.nanos() / 1e6, label(e), e.job(), e.thread());
      }
    }
    List<String> stages = new ArrayList<>();
    workload.stageMillis().forEach((name, l) -> stages.add(String.format(Locale.ROOT, "%s %.1f ms", name,
        ProvingWorkload.median(l))));
    out.printf(Locale.ROOT, "stages    %s (median per partition%s)%n", String.join(", ", stages),
        reuseHostWork ? "; synthesize and b_g2_msm: the one run before the clock started" : "");
    workload.gpuSectionOverHostBG2().ifPresent(ratio -> out.printf(Locale.ROOT,
        "gpu_section_over_host_b_g2 %.2f (medians: %s over host b_g2_msm; above 1, one worker's host G2 MSM fits beside the "
            + "next one's GPU section)%n", ratio, String.join(" + ", ProvingWorkload.GPU_SECTION_STAGES.stream()
            .filter(workload.stageMillis()::containsKey).toList())));
    int verified = 0;
    int produced = 0;
    List<String> problems = new ArrayList<>();
    for (JobResult j : report.results()) {
      if (j instanceof JobResult.Completed c && c.value() instanceof Proof p) {
        produced++;
        ProvingWorkload.Partition part = (ProvingWorkload.Partition) j.job().payload();
        if (Verifier.verify(entry.keys().vk(), p, part.publicInputs())) {
          verified++;
        } else {
          problems.add("partition " + part.index() + ": proof does not verify");
        }
      } else if (j instanceof JobResult.Failed f) {
        problems.add("partition " + j.job().id() + " failed at '" + f.step() + "': " + f.violation().kind() + ": " + f.violation().message()
            + retriedText(report, j));
      } else if (j instanceof JobResult.Faulted f) {
        problems.add("partition " + j.job().id() + " failed at '" + f.step() + "': " + f.fault().describe() + retriedText(report, j));
      } else if (j instanceof JobResult.Aborted a) {
        problems.add("partition " + j.job().id() + " aborted: " + a.why());
      } else if (j instanceof JobResult.Swallowed sw) {
        problems.add("partition " + j.job().id() + " ran on after an ignored OOM (SWALLOWED_OOM), its proof made without "
            + "its buffers: " + sw.swallowed().stream().map(v -> v.message()).toList() + ", "
            + sw.withoutBuffers().stream().map(m -> m.describe()).toList());
      } else {
        problems.add("partition " + j.job().id() + " produced no proof");
      }
    }
    long capacity = report.memory().capacity();
    out.printf(Locale.ROOT, "device    peak %s used of %s vram (%s); one partition needs %s staged + %s scratch by formula%n",
        mib(report.memory().peakUsed()), Sizes.format(capacity), report.memory().peakUsed() <= capacity ? "within vram" : "OVER vram",
        mib(workload.stagedBytes()), mib(workload.scratchBytes()));
    out.printf(Locale.ROOT, "wall      %.3f s, %.1f proofs per minute, kernel steps busy %.1f%% of the wall (union of kernel intervals)%n",
        report.seconds(), produced / report.seconds() * 60, 100 * KernelBusy.fraction(report.events(), report.seconds()));
    if (workload.msmTableCopies() > 0) {
      double build = workload.msmTablesBuildMillis();
      double rest = report.seconds() - (Double.isNaN(build) ? 0 : build / 1e3);
      out.printf(Locale.ROOT, "tables    %s: %d copies of each base of the 4 G1 base sets, %s with the bases, of %s declared; built "
              + "once in %.1f ms at the first msm step (inside that step, not in the msm stage's times; the wall above includes it: "
              + "without it about %.3f s, %.1f proofs per minute)%n", ProvingWorkload.MSM_TABLES, workload.msmTableCopies(),
          mib(workload.msmTablesBytes(kernels)), Sizes.format(declaredTablesBytes(d)), build, rest, produced / rest * 60);
    }
    List<String> holds = new ArrayList<>();
    LockHolds.of(report.events()).values().forEach(f -> holds.add(String.format(Locale.ROOT, "%s held %.1f ms, waited %.1f ms",
        f.lock(), f.medianHeld(), f.medianWaited())));
    if (!holds.isEmpty()) {
      out.printf(Locale.ROOT, "locks     %s (medians per take)%n", String.join("; ", holds));
    }
    kernels.kernelSeconds().ifPresent(k -> out.printf(Locale.ROOT,
        "gpu busy  %.3f s of NTT and MSM kernels (device events) in %.3f s wall: %.1f%%%n", k, report.seconds(),
        100 * k / report.seconds()));
    if (overlap != null) {
      out.printf(Locale.ROOT, "overlap   %s beside %s on another worker: %d times%n", overlap.get(0), overlap.get(1),
          Overlaps.count(report.events(), overlap.get(0), overlap.get(1)));
    }
    problems.forEach(p -> out.printf(Locale.ROOT, "problem   %s%n", p));
    FaultSummary.print(out, report, faults, dev instanceof FaultyDevice f ? f : null, partitions, "partition");
    out.printf(Locale.ROOT, "%d/%d proofs verified%n", verified, partitions);
    out.flush();
    return verified == partitions ? 0 : 1;
  }

  /** ", after N retries" when the partition of {@code j} was retried. */
  private static String retriedText(RunReport report, JobResult j) {
    long n = report.retried().stream().filter(x -> x.job().id() == j.job().id()).count();
    return n == 0 ? "" : " (after " + n + " retries)";
  }

  private static String label(Event e) {
    String name = Interval.nameOf(e.step()).orElse(e.step().text()); // an interval by its name, any other step by its text
    return e.phase().map(p -> p == Phase.BEGIN ? "begin " + name : "end " + name).orElse(name)
        + e.failure().map(v -> " FAILED " + v.kind()).orElse("");
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.2f MiB (%d B)", bytes / (double) Sizes.MIB, bytes);
  }

  /** The witness shape --witness and --full-scalars ask for. */
  private WitnessShape witnessShape() {
    switch (witness) {
      case "field":
        if (fullScalars != null) {
          throw new CliError("--full-scalars needs --witness filecoin");
        }
        return WitnessShape.FIELD;
      case "filecoin":
        return WitnessShape.filecoin(fullScalars == null ? WitnessShape.DEFAULT_FILECOIN_FULL_PPM : ppm(fullScalars));
      default:
        throw new CliError("--witness must be field or filecoin, got '" + witness + "'");
    }
  }

  /** --full-scalars' percentage in parts per million. */
  static int ppm(String text) {
    try {
      return WitnessShape.ppmOfPercent(text);
    } catch (IllegalArgumentException e) {
      throw new CliError("--full-scalars: " + e.getMessage());
    }
  }

  /** Parses N as 4096 or 2^12 and returns log2 N. */
  static int logN(String text) {
    String t = text.strip();
    try {
      if (t.startsWith("2^")) {
        int k = Integer.parseInt(t.substring(2));
        if (k >= 0 && k <= 30) {
          return k;
        }
      } else {
        long v = Long.parseLong(t);
        if (v > 0 && Long.bitCount(v) == 1 && v <= (1L << 30)) {
          return Long.numberOfTrailingZeros(v);
        }
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new CliError("--n must be a power of two, as 4096 or 2^12, got '" + text + "'");
  }
}

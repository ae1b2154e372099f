package dev.interlock.cli;

import dev.interlock.impl.device.SimulatedDevice;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.Event;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.groth16.Circuit;
import dev.interlock.impl.groth16.KeyCache;
import dev.interlock.impl.groth16.KeyFileException;
import dev.interlock.impl.groth16.Proof;
import dev.interlock.impl.groth16.Verifier;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.pipeline.ProvingWorkload;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Phase;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
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
    if (workers != null) {
      if (workers < 1) {
        throw new CliError("--workers must be at least 1, got " + workers);
      }
      d = d.withThreads(r, workers);
    }
    Circuit circuit;
    try {
      circuit = Circuit.synthetic(logN, publicInputs, 1);
    } catch (IllegalArgumentException e) {
      throw new CliError("--n/--public-inputs: " + e.getMessage());
    }
    long s = seed != null ? seed : System.currentTimeMillis();
    PrintWriter out = spec.commandLine().getOut();
    long t0 = System.nanoTime();
    KeyCache.Entry entry;
    try {
      entry = KeyCache.loadOrCreate(keys, circuit, 1);
    } catch (KeyFileException e) {
      throw new CliError(e.getMessage());
    }
    out.printf(Locale.ROOT, "circuit   N=2^%d constraints, %d variables, %d public inputs; keys %s (%s, %.0f ms)%n", logN,
        circuit.numVariables(), publicInputs, entry.file(), entry.outcome().name().toLowerCase(Locale.ROOT), (System.nanoTime() - t0) / 1e6);
    SplittableRandom rng = new SplittableRandom(s);
    List<ProvingWorkload.Partition> parts = new ArrayList<>();
    for (int i = 0; i < partitions; i++) {
      parts.add(ProvingWorkload.Partition.random(i, circuit, rng.split()));
    }
    ProvingWorkload workload = new ProvingWorkload(circuit, entry.keys().pk(), s);
    out.printf(Locale.ROOT, "request   %d partitions, seed %d (rerun: --seed %d); design %s, %s%n", partitions, s, s, d.name(),
        CheckCommand.parameters(d));
    RunReport report;
    try (SimulatedDevice device = new SimulatedDevice(d.vram())) {
      report = new Engine(device, StepGate.FREE).start(d, designFile.toString(),
          role0 -> new InterpretedPipeline(role0, false, role0.name().equals(r) ? workload : dev.interlock.impl.pipeline.Workload.NONE),
          Map.of(r, parts)).await();
    }
    if (!noTimeline) {
      for (Event e : report.events()) {
        out.printf(Locale.ROOT, "TIMELINE %10.3f ms  %-34s job %-3d %s%n", e.nanos() / 1e6, label(e), e.job(), e.thread());
      }
    }
    List<String> stages = new ArrayList<>();
    workload.stageMillis().forEach((name, l) -> {
      List<Double> sorted = new ArrayList<>(l);
      sorted.sort(null);
      stages.add(String.format(Locale.ROOT, "%s %.1f ms", name, sorted.get(sorted.size() / 2)));
    });
    out.printf(Locale.ROOT, "stages    %s (median per partition)%n", String.join(", ", stages));
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
        problems.add("partition " + j.job().id() + " failed at '" + f.step() + "': " + f.violation().kind() + ": " + f.violation().message());
      } else if (j instanceof JobResult.Aborted a) {
        problems.add("partition " + j.job().id() + " aborted: " + a.why());
      } else {
        problems.add("partition " + j.job().id() + " produced no proof");
      }
    }
    out.printf(Locale.ROOT, "device    peak %s used of %s vram (%s); one partition needs %s staged + %s scratch by formula%n",
        mib(report.memory().peakUsed()), Sizes.format(d.vram()), report.memory().peakUsed() <= d.vram() ? "within vram" : "OVER vram",
        mib(workload.stagedBytes()), mib(workload.scratchBytes()));
    out.printf(Locale.ROOT, "wall      %.3f s, %.1f proofs per minute%n", report.seconds(), produced / report.seconds() * 60);
    problems.forEach(p -> out.printf(Locale.ROOT, "problem   %s%n", p));
    out.printf(Locale.ROOT, "%d/%d proofs verified%n", verified, partitions);
    out.flush();
    return verified == partitions ? 0 : 1;
  }

  private static String label(Event e) {
    String step = e.step();
    String name = step.startsWith("cpu ") || step.startsWith("kernel ") ? step.split(" ")[1] : step;
    return e.phase().map(p -> p == Phase.BEGIN ? "begin " + name : "end " + name).orElse(step)
        + e.failure().map(v -> " FAILED " + v.kind()).orElse("");
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.2f MiB (%d B)", bytes / (double) Sizes.MIB, bytes);
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

package dev.interlock.cli;

import dev.interlock.impl.api.Device;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.JobResult;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.engine.Scheduled;
import dev.interlock.impl.sync.JitterGate;
import dev.interlock.model.check.CheckReport;
import dev.interlock.model.check.Checker;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Trace;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code interlock fidelity}: does the device do what the model says, design by design?
 *
 * <p>For a design the model finds unsafe, the minimal counterexample is replayed on the device and must end in the
 * same outcome at the same transition (on the GPU, an OOM must be the driver's own CUDA_ERROR_OUT_OF_MEMORY). For a
 * safe design, free runs with random timing jitter must complete every job with nothing live at shutdown.
 */
@Command(name = "fidelity", mixinStandardHelpOptions = true,
    description = "Compare the model's verdict of each design with what the device does: exit 0 when all agree, 1 on any disagreement, 2 on bad input.")
final class FidelityCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "DESIGN", arity = "0..*", description = "Design files (default: every .design file under designs/, sorted).")
  List<Path> files = new ArrayList<>();

  @Option(names = "--device", paramLabel = "KIND", description = "simulated (default) or gpu: CUDA device 0 with each design's vram as budget.")
  String device = "simulated";

  @Option(names = "--runs", paramLabel = "K", description = "Free runs per SAFE design (default: 20).")
  int runs = 20;

  @Option(names = "--seed", paramLabel = "S", description = "Seed of the first free run's jitter; run i uses S + i (default: 1).")
  long seed = 1;

  @Option(names = "--jitter-us", paramLabel = "US", description = "Most microseconds a free run's thread pauses before a step (default: 200).")
  int jitterMicros = 200;

  @Option(names = "--max-states", paramLabel = "N", description = "The model search's state limit per design (default: 20000000).")
  long maxStates = 20_000_000;

  @Option(names = "--model-only", description = "Only compute the model's verdicts (no device); with --verdicts-out, record the SAFE ones.")
  boolean modelOnly;

  @Option(names = "--verdicts-out", paramLabel = "FILE", description = "With --model-only: write 'DESIGN SAFE STATES' for each design found SAFE.")
  Path verdictsOut;

  @Option(names = "--verdicts", paramLabel = "FILE", description = "SAFE verdicts recorded by --model-only --verdicts-out (where CPU time is cheap): "
      + "those designs are not searched again, only run on the device.")
  Path verdictsIn;

  /** One design's comparison. */
  record Row(Path file, String model, String device, boolean agree) {}

  @Override
  public Integer call() {
    if (!device.equals("simulated") && !device.equals("gpu")) {
      throw new CliError("--device must be simulated or gpu, got '" + device + "'");
    }
    if (runs < 1) {
      throw new CliError("--runs must be positive, got " + runs);
    }
    if (jitterMicros < 0) {
      throw new CliError("--jitter-us must not be negative, got " + jitterMicros);
    }
    if (maxStates < 1) {
      throw new CliError("--max-states must be positive, got " + maxStates);
    }
    if (verdictsOut != null && !modelOnly) {
      throw new CliError("--verdicts-out needs --model-only");
    }
    List<Path> designs = files.isEmpty() ? allDesigns() : files;
    List<Design> loaded = new ArrayList<>();
    for (Path f : designs) {
      loaded.add(new DesignOptions().load(f)); // every file's bad input first, before a GPU is opened
    }
    recordedSafe = verdictsIn == null ? java.util.Map.of() : readVerdicts(verdictsIn);
    PrintWriter out = spec.commandLine().getOut();
    if (modelOnly) {
      return modelOnly(out, designs, loaded);
    }
    out.printf(Locale.ROOT, "fidelity on the %s device: %d designs, %d free runs per SAFE design (jitter seed %d, up to %d us)%n",
        device, designs.size(), runs, seed, jitterMicros);
    int agree = 0;
    for (int i = 0; i < designs.size(); i++) {
      Row r = compare(designs.get(i), loaded.get(i));
      out.printf(Locale.ROOT, "%-40s model %-28s device %-44s %s%n", r.file(), r.model(), r.device(), r.agree() ? "agree" : "DISAGREE");
      out.flush();
      agree += r.agree() ? 1 : 0;
    }
    out.printf(Locale.ROOT, "fidelity %d/%d designs agree%n", agree, designs.size());
    out.flush();
    return agree == designs.size() ? 0 : 1;
  }

  /** Designs recorded SAFE by an earlier --model-only run: path as given, and the states that search visited. */
  private java.util.Map<String, Long> recordedSafe = java.util.Map.of();

  private int modelOnly(PrintWriter out, List<Path> designs, List<Design> loaded) {
    StringBuilder file = new StringBuilder("# interlock fidelity --model-only: designs the exhaustive search found SAFE\n");
    int decided = 0;
    for (int i = 0; i < designs.size(); i++) {
      CheckReport r = Checker.check(loaded.get(i), designs.get(i).toString(), Checker.Options.defaults(maxStates));
      out.printf(Locale.ROOT, "%-40s model %s (%d states)%n", designs.get(i), r.verdict().label(), r.search().states());
      out.flush();
      if (r.verdict() instanceof Verdict.Safe) {
        file.append(designs.get(i)).append(" SAFE ").append(r.search().states()).append('\n');
      }
      decided += r.verdict() instanceof Verdict.LimitReached ? 0 : 1;
    }
    if (verdictsOut != null) {
      if (Files.exists(verdictsOut)) {
        throw new CliError(verdictsOut + ": already exists; not overwritten");
      }
      try {
        Files.writeString(verdictsOut, file);
      } catch (IOException e) {
        throw new CliError(verdictsOut + ": cannot write: " + e.getMessage());
      }
    }
    out.printf(Locale.ROOT, "model decided %d/%d designs%n", decided, designs.size());
    out.flush();
    return decided == designs.size() ? 0 : 1;
  }

  private static java.util.Map<String, Long> readVerdicts(Path file) {
    java.util.Map<String, Long> m = new java.util.LinkedHashMap<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new CliError(file + ": cannot read: " + e.getMessage());
    }
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i).strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      String[] f = l.split("\\s+");
      try {
        if (f.length != 3 || !f[1].equals("SAFE")) {
          throw new NumberFormatException();
        }
        m.put(f[0], Long.parseLong(f[2]));
      } catch (NumberFormatException e) {
        throw new CliError(file + ":" + (i + 1) + ":1: expected 'DESIGN SAFE STATES', got '" + l + "'");
      }
    }
    return m;
  }

  private Row compare(Path file, Design d) {
    Long recorded = recordedSafe.get(file.toString());
    CheckReport report = recorded != null ? null : Checker.check(d, file.toString(), Checker.Options.defaults(maxStates));
    Verdict v = recorded != null ? new Verdict.Safe() : report.verdict();
    try (Device dev = GpuDevices.forSteps(device.equals("gpu"), "--device gpu", d.vram())) {
      if (v instanceof Verdict.Unsafe u) {
        Trace cx = report.counterexample().orElseThrow();
        String model = u.label() + " at " + cx.length();
        Design applied = cx.params().applyTo(d);
        Scheduled.Replay rr = Scheduled.replay(applied, file.toString(), cx, dev, Pipelines.choose("interpreted", d.name()));
        if (rr.result() instanceof ReplayResult.Diverged dv) {
          return new Row(file, model, "diverges at " + dv.index() + ": " + dv.reason(), false);
        }
        String driver = driverError(rr.report());
        boolean oomIsDrivers = !device.equals("gpu") || !u.label().equals("OOM") || driver != null;
        return new Row(file, model, u.label() + " at " + cx.length() + (driver != null ? " (" + driver + ")" : ""),
            oomIsDrivers);
      }
      if (v instanceof Verdict.Safe) {
        for (int i = 0; i < runs; i++) {
          RunReport r = new Engine(dev, new JitterGate(seed + i, jitterMicros)).run(d, file.toString(),
              Pipelines.choose("interpreted", d.name()));
          String bad = problem(r);
          if (bad != null) {
            return new Row(file, recorded != null ? "SAFE (recorded)" : "SAFE", "run " + (i + 1) + " (seed " + (seed + i) + "): " + bad, false);
          }
        }
        return new Row(file, recorded != null ? "SAFE (recorded)" : "SAFE", runs + "/" + runs + " runs complete, nothing live", true);
      }
      return new Row(file, v.label(), "not compared: the model has no verdict", false);
    }
  }

  /** What went wrong in a free run of a SAFE design, or null. */
  private static String problem(RunReport r) {
    if (r.deadlock().isPresent()) {
      return "deadlock: " + r.deadlock().get();
    }
    for (JobResult j : r.results()) {
      if (j instanceof JobResult.Failed f) {
        return "job " + f.job().id() + " failed: " + f.violation().kind() + " " + f.violation().message();
      }
      if (j instanceof JobResult.Aborted a) {
        return "job " + a.job().id() + " aborted: " + a.why();
      }
      if (j instanceof JobResult.Swallowed sw) {
        return "job " + sw.job().id() + " ran on after an ignored OOM (SWALLOWED_OOM): "
            + (sw.swallowed().isEmpty() ? sw.withoutBuffers().get(0).describe() : sw.swallowed().get(0).message());
      }
    }
    if (r.leftover() != 0) {
      return r.leftover() + " buffers live at shutdown";
    }
    if (!(r.trace().outcome() instanceof Outcome.Completed)) {
      return "the run ends in " + r.trace().outcome();
    }
    return null;
  }

  /** The driver's error of a failed job (the name of the code it carries), or null. */
  private static String driverError(RunReport r) {
    for (JobResult j : r.results()) {
      if (j instanceof JobResult.Failed f && f.driverError().isPresent()) {
        return f.driverError().get().name();
      }
    }
    return null;
  }

  private static List<Path> allDesigns() {
    Path root = Path.of("designs");
    if (!Files.isDirectory(root)) {
      throw new CliError("no designs/ folder here; name the design files");
    }
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> p.toString().endsWith(".design")).sorted().toList();
    } catch (IOException e) {
      throw new CliError("cannot list designs/: " + e.getMessage());
    }
  }
}

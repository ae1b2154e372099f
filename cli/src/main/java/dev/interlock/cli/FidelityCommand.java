package dev.interlock.cli;

import dev.interlock.fidelity.Fidelity;
import dev.interlock.fidelity.FidelityDevice;
import dev.interlock.fidelity.FidelityOptions;
import dev.interlock.fidelity.FidelityReport;
import dev.interlock.fidelity.ModelVerdict;
import dev.interlock.model.check.Verdict;
import dev.interlock.model.design.Design;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code interlock fidelity}: does the device do what the model says, design by design? The comparison is
 * {@link Fidelity}'s; this command parses the options, opens the device it names and prints one line per design.
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

  @Option(names = "--runs", paramLabel = "K", description = "Free runs per SAFE design (default: ${DEFAULT-VALUE}).")
  int runs = FidelityOptions.DEFAULT_RUNS;

  @Option(names = "--seed", paramLabel = "S",
      description = "Seed of the first free run's jitter; run i uses S + i (default: ${DEFAULT-VALUE}).")
  long seed = FidelityOptions.DEFAULT_SEED;

  @Option(names = "--jitter-us", paramLabel = "US",
      description = "Most microseconds a free run's thread pauses before a step (default: ${DEFAULT-VALUE}).")
  int jitterMicros = FidelityOptions.DEFAULT_JITTER_MICROS;

  @Option(names = "--max-states", paramLabel = "N",
      description = "The model search's state limit per design (default: ${DEFAULT-VALUE}).")
  long maxStates = FidelityOptions.DEFAULT_MAX_STATES;

  @Option(names = "--model-only", description = "Only compute the model's verdicts (no device); with --verdicts-out, record the SAFE ones.")
  boolean modelOnly;

  @Option(names = "--verdicts-out", paramLabel = "FILE", description = "With --model-only: write 'DESIGN SAFE STATES' for each design found SAFE.")
  Path verdictsOut;

  @Option(names = "--verdicts", paramLabel = "FILE", description = "SAFE verdicts recorded by --model-only --verdicts-out (where CPU time is cheap): "
      + "those designs are not searched again, only run on the device.")
  Path verdictsIn;

  @Override
  public Integer call() {
    if (!device.equals("simulated") && !device.equals("gpu")) {
      throw new CliError("--device must be simulated or gpu, got '" + device + "'");
    }
    FidelityDevice target = device.equals("gpu")
        ? new FidelityDevice("gpu", vram -> GpuDevices.forSteps(true, "--device gpu", vram)) : FidelityDevice.SIMULATED;
    FidelityOptions options;
    try {
      options = new FidelityOptions(target, runs, seed, jitterMicros, maxStates);
    } catch (IllegalArgumentException e) {
      throw new CliError(asOption(e.getMessage()));
    }
    if (verdictsOut != null && !modelOnly) {
      throw new CliError("--verdicts-out needs --model-only");
    }
    List<Path> designs = files.isEmpty() ? allDesigns() : files;
    List<Design> loaded = new ArrayList<>();
    for (Path f : designs) {
      loaded.add(new DesignOptions().load(f)); // every file's bad input first, before a GPU is opened
    }
    recordedSafe = verdictsIn == null ? Map.of() : readVerdicts(verdictsIn);
    PrintWriter out = spec.commandLine().getOut();
    if (modelOnly) {
      return modelOnly(out, designs, loaded);
    }
    out.printf(Locale.ROOT, "fidelity on the %s device: %d designs, %d free runs per SAFE design (jitter seed %d, up to %d us)%n",
        target.name(), designs.size(), runs, seed, jitterMicros);
    int agree = 0;
    for (int i = 0; i < designs.size(); i++) {
      String source = designs.get(i).toString();
      Long recorded = recordedSafe.get(source);
      ModelVerdict model = recorded != null ? ModelVerdict.recordedSafe(recorded)
          : Fidelity.model(loaded.get(i), source, maxStates);
      FidelityReport r = Fidelity.compare(loaded.get(i), source, model, options);
      out.printf(Locale.ROOT, "%-40s model %-28s device %-44s %s%n", r.source(), r.model().text(), r.device().text(),
          r.agrees() ? "agree" : "DISAGREE");
      out.flush();
      agree += r.agrees() ? 1 : 0;
    }
    out.printf(Locale.ROOT, "fidelity %d/%d designs agree%n", agree, designs.size());
    out.flush();
    return agree == designs.size() ? 0 : 1;
  }

  /** The options' names in {@link FidelityOptions}, as they are typed here. */
  private static final Map<String, String> OPTION_NAMES =
      Map.of("runs", "--runs", "jitterMicros", "--jitter-us", "maxStates", "--max-states");

  /** The library's message about a value ("runs must be positive, got 0"), naming the option as typed here. */
  private static String asOption(String message) {
    for (Map.Entry<String, String> e : OPTION_NAMES.entrySet()) {
      if (message.startsWith(e.getKey() + " ")) {
        return e.getValue() + message.substring(e.getKey().length());
      }
    }
    return message;
  }

  /** Designs recorded SAFE by an earlier --model-only run: path as given, and the states that search visited. */
  private Map<String, Long> recordedSafe = Map.of();

  private int modelOnly(PrintWriter out, List<Path> designs, List<Design> loaded) {
    StringBuilder file = new StringBuilder("# interlock fidelity --model-only: designs the exhaustive search found SAFE\n");
    int decided = 0;
    for (int i = 0; i < designs.size(); i++) {
      ModelVerdict r = Fidelity.model(loaded.get(i), designs.get(i).toString(), maxStates);
      out.printf(Locale.ROOT, "%-40s model %s (%d states)%n", designs.get(i), r.verdict().label(), r.states());
      out.flush();
      if (r.verdict() instanceof Verdict.Safe) {
        file.append(designs.get(i)).append(" SAFE ").append(r.states()).append('\n');
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

  private static Map<String, Long> readVerdicts(Path file) {
    Map<String, Long> m = new java.util.LinkedHashMap<>();
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

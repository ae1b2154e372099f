package dev.interlock.cli;

import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Sizes;
import dev.interlock.observe.Inferrer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code interlock infer CAPTURE -o DESIGN}: writes the design a captured run follows. */
@Command(name = "infer", mixinStandardHelpOptions = true,
    description = "Write a design from a captured run (docs/capture-format.md): roles from threads with the same steps, jobs from NVTX ranges named job or the repeating pattern; exit 0, 2 on bad input.")
final class InferCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "CAPTURE", description = "The captured run.")
  Path captureFile;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "DESIGN", description = "The design file to write.")
  Path output;

  @Option(names = "--force", description = "Let -o replace an existing file.")
  boolean force;

  @Option(names = "--map", paramLabel = "FILE", description = "Mapping file: object names, ignored allocations, allocation groups.")
  Path mapFile;

  @Option(names = "--vram", paramLabel = "SIZE", description = "The device's size (default: what the capture's first cuMemGetInfo saw free, plus what was live then).")
  String vram;

  @Override
  public Integer call() {
    TraceFiles.checkWritable(output, force);
    Optional<Long> bytes = Optional.empty();
    if (vram != null) {
      Sizes.Parsed p = Sizes.parse(vram);
      bytes = Optional.of(p.bytes().orElseThrow(() -> new CliError("--vram: " + p.error())));
    }
    CaptureInputs in = CaptureInputs.read(captureFile, mapFile, spec.commandLine().getErr());
    String text;
    try {
      Inferrer.Result r = Inferrer.inferWithWarnings(in.capture(), in.mapping(), bytes);
      text = r.text();
      r.warnings().forEach(w -> spec.commandLine().getErr().println("warning: " + w));
      DesignParser.parse(output.toString(), text);
    } catch (IllegalArgumentException e) {
      throw new CliError(e.getMessage());
    } catch (DesignException e) {
      throw new CliError("the inferred design does not parse (a bug): " + e.getMessage());
    }
    TraceFiles.write(text, output, force, "design");
    PrintWriter out = spec.commandLine().getOut();
    out.println("design written to " + output);
    out.flush();
    return 0;
  }
}

package dev.interlock.cli;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.observe.Validation;
import dev.interlock.observe.Validator;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code interlock validate DESIGN CAPTURE [--map FILE] [--vram SIZE] [--html OUT.html] [--timeline-json OUT.json]
 * [--force]}: is a captured run a behaviour of the design.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = "Check that a captured run (docs/capture-format.md) is a behaviour of the design: exit 0 CONFORMS, 1 DIVERGES (at the first event the design does not allow), 2 on bad input.")
final class ValidateCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "DESIGN", description = "The design file.")
  Path designFile;

  @Parameters(index = "1", paramLabel = "CAPTURE", description = "The captured run.")
  Path captureFile;

  @Option(names = "--map", paramLabel = "FILE", description = "Mapping file: object names, threads, ignored allocations, allocation groups, size tolerance.")
  Path mapFile;

  @Option(names = "--vram", paramLabel = "SIZE", description = "The run's device memory where it is not the design's (a run made with another budget), e.g. 20GiB.")
  String vram;

  @Option(names = "--html", paramLabel = "OUT.html", description = "Write the HTML view of the model transitions the run was checked as.")
  Path html;

  @Option(names = "--timeline-json", paramLabel = "OUT.json", description = "Write the captured run as a Chrome trace event file (Perfetto, chrome://tracing), on its own clock.")
  Path timelineJson;

  @Option(names = "--force", description = "Let --html or --timeline-json replace an existing file.")
  boolean force;

  @Override
  public Integer call() {
    TraceFiles.checkWritable(html, force);
    TraceFiles.checkWritable(timelineJson, force);
    String text;
    try {
      text = DesignParser.readText(designFile);
    } catch (DesignException e) {
      throw new CliError(e.getMessage());
    }
    DesignOptions options = new DesignOptions();
    options.vram = vram;
    Design d = options.load(designFile, text);
    CaptureInputs in = CaptureInputs.read(captureFile, mapFile, spec.commandLine().getErr());
    try {
      in.mapping().checkAgainst(d);
    } catch (dev.interlock.observe.CaptureFormatException e) {
      throw new CliError(e.getMessage());
    }
    Validator.Validated run = Validator.validateRun(d, designFile.toString(), text, in.capture(), in.mapping());
    Validation v = run.validation();
    PrintWriter out = spec.commandLine().getOut();
    out.println(v.summary());
    if (v instanceof Validation.Conforms c) {
      c.failures().forEach(f -> out.println("  " + f));
    }
    if (html != null) {
      HtmlViews.trace(html, force, "validate " + captureFile.getFileName(), run.trace(), d);
      out.println("html written to " + html + " (" + run.trace().length() + " transitions)");
    }
    if (timelineJson != null) {
      int records = Timelines.capture(timelineJson, force, in);
      out.println("timeline written to " + timelineJson + " (" + records + " records)");
    }
    out.flush();
    return v.exitStatus();
  }
}

package dev.interlock.cli;

import dev.interlock.model.design.Design;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceFormatException;
import dev.interlock.observe.CaptureFormat;
import dev.interlock.view.html.TraceView;
import dev.interlock.view.html.TraceViews;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code interlock show TRACE... --html OUT.html}: one page with the traces one under the other; {@code interlock show
 * CAPTURE --timeline-json OUT.json [--map FILE]}: a captured run's timeline on its own clock, without a design. A file
 * is a capture when its first line is the capture format's.
 */
@Command(name = "show", mixinStandardHelpOptions = true,
    description = {"Write traces as one self-contained HTML page (lanes per thread, lock holds, device memory against vram, the violation marked), one under the other with aligned transitions; or a captured run (docs/capture-format.md) as a Perfetto timeline: exit 0, 2 on bad input.",
        "A file whose first line is '" + CaptureFormat.MAGIC + "' is a capture, any other a trace."})
final class ShowCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0..*", arity = "1..*", paramLabel = "FILE", description = "Trace files for --html, or one capture for --timeline-json.")
  List<Path> files;

  @Option(names = "--html", paramLabel = "OUT.html", description = "The page of the traces to write.")
  Path html;

  @Option(names = "--timeline-json", paramLabel = "OUT.json", description = "Write the capture as a Chrome trace event file (Perfetto, chrome://tracing).")
  Path timelineJson;

  @Option(names = "--map", paramLabel = "FILE", description = "With a capture: a mapping file, whose object and thread names the timeline uses.")
  Path mapFile;

  @Option(names = "--force", description = "Let --html or --timeline-json replace an existing file.")
  boolean force;

  @Override
  public Integer call() {
    if ((html == null) == (timelineJson == null)) {
      throw new CliError("show writes either --html OUT.html (of traces) or --timeline-json OUT.json (of a capture)");
    }
    TraceFiles.checkWritable(html, force);
    TraceFiles.checkWritable(timelineJson, force);
    return timelineJson != null ? timeline() : page();
  }

  private int page() {
    if (mapFile != null) {
      throw new CliError("--map names a capture's objects; it goes with --timeline-json");
    }
    List<TraceView> views = new ArrayList<>();
    for (Path f : files) {
      if (isCapture(f)) {
        throw new CliError(f + ": a capture, not a trace: its HTML view is drawn against a design (interlock validate DESIGN "
            + f + " --html OUT.html); show " + f + " --timeline-json OUT.json draws it without one");
      }
      Trace t;
      try {
        t = TraceFormat.read(f);
      } catch (TraceFormatException e) {
        throw new CliError(e.getMessage());
      }
      Design d = new DesignOptions().load(TraceDesigns.locate(f, t.source(), "run show from the folder the trace's source path is relative to"));
      views.add(TraceViews.ofTrace(f.toString(), t, d));
    }
    HtmlViews.write(html, force, "interlock show: " + String.join(", ", files.stream().map(Path::toString).toList()), views);
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "html written to %s (%d trace%s)%n", html, views.size(), views.size() == 1 ? "" : "s");
    out.flush();
    return 0;
  }

  private int timeline() {
    if (files.size() != 1) {
      throw new CliError("--timeline-json takes one capture, got " + files.size() + " files");
    }
    Path f = files.get(0);
    if (!isCapture(f)) {
      throw new CliError(f + ": not a capture (its first line is not '" + CaptureFormat.MAGIC + "'); a trace has no times: "
          + "replay TRACE --on impl --timeline-json OUT.json gives a timeline of it run on the engine");
    }
    CaptureInputs in = CaptureInputs.read(f, mapFile, spec.commandLine().getErr());
    int events = Timelines.capture(timelineJson, force, in);
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "timeline written to %s (%d records)%n", timelineJson, events);
    out.flush();
    return 0;
  }

  /** Whether {@code f} starts with the capture format's first line (a file that cannot be read is left to the trace reader). */
  static boolean isCapture(Path f) {
    byte[] magic = (CaptureFormat.MAGIC + "\n").getBytes(StandardCharsets.UTF_8);
    try (InputStream in = Files.newInputStream(f)) {
      byte[] head = in.readNBytes(magic.length);
      return java.util.Arrays.equals(head, magic);
    } catch (IOException e) {
      return false;
    }
  }
}

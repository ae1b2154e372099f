package dev.interlock.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.impl.api.Device;
import dev.interlock.impl.engine.Scheduled;
import dev.interlock.model.design.Design;
import dev.interlock.model.trace.Outcome;
import dev.interlock.model.trace.ReplayResult;
import dev.interlock.model.trace.Replayer;
import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceFormatException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code interlock replay TRACE}: re-executes a trace on the model and confirms its outcome. */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Re-execute a trace on the model, the engine or the GPU: exit 0 when it ends in the recorded outcome, 1 where it diverges, 2 on bad input.")
final class ReplayCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "TRACE", description = "The trace file.")
  Path file;

  @Option(names = "--design", paramLabel = "FILE", description = "The design file (default: the trace's source, looked up from here and from the trace's folder).")
  Path designFile;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  boolean json;

  @Option(names = "--on", paramLabel = "TARGET", description = "What executes the trace: model (default), impl (the reference engine: real threads, real locks, the simulated device) "
      + "or gpu (the engine on CUDA device 0, real VRAM with the trace's vram as budget: an OOM is the driver's).")
  String on = "model";

  @Option(names = "--pipeline", paramLabel = "KIND", description = "With --on impl or gpu: interpreted (default: the design interpreter) or hand-written (the Java pipeline written for this design).")
  String pipeline = "interpreted";

  @Mixin
  RunOutputs outputs = new RunOutputs();

  @Override
  public Integer call() {
    Trace trace;
    try {
      trace = TraceFormat.read(file);
    } catch (TraceFormatException e) {
      throw new CliError(e.getMessage());
    }
    if (outputs.timelineJson != null && on.equals("model")) {
      throw new CliError("--timeline-json needs --on impl or gpu: a replay on the model has no times");
    }
    outputs.checkWritable();
    Path source = designFile != null ? designFile : TraceDesigns.locate(file, trace.source(), "pass --design FILE");
    Design d = new DesignOptions().load(source);
    ReplayResult r;
    String engineNote = null;
    String where = "the model";
    switch (on) {
      case "model" -> {
        r = Replayer.replay(trace, d);
        if (outputs.html != null) {
          HtmlViews.trace(outputs.html, outputs.force, "trace", trace, d);
        }
      }
      case "impl", "gpu" -> {
        Design applied;
        try {
          applied = trace.params().applyTo(d);
        } catch (IllegalArgumentException e) {
          throw new CliError(file + ": the trace's parameters do not fit " + source + ": " + e.getMessage());
        }
        var pipelines = Pipelines.choose(pipeline, applied.name()); // bad input first, before a GPU is opened
        Device device = GpuDevices.forSteps(on.equals("gpu"), "--on gpu", applied.vram());
        try (device) {
          where = "the engine, " + pipeline + " pipeline, " + device.description();
          Scheduled.Replay rr = Scheduled.replay(applied, trace.source(), trace, device, pipelines);
          r = rr.result();
          engineNote = Reports.failures(rr.report()) + Reports.swallowed(rr.report());
          outputs.writeTimeline(rr.report(), device);
          if (outputs.html != null) {
            HtmlViews.replay(outputs.html, outputs.force, trace, d, applied, "the engine (" + on + ")", rr.report());
          }
        }
      }
      default -> throw new CliError("--on must be model, impl or gpu, got '" + on + "'");
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode m = Json.object();
      m.put("trace", file.toString());
      m.put("design", source.toString());
      m.put("on", on);
      m.put("confirmed", r instanceof ReplayResult.Confirmed);
      m.put("length", trace.length());
      m.put("outcome", outcome(trace.outcome()));
      if (r instanceof ReplayResult.Diverged dv) {
        m.put("diverges_at", dv.index());
        m.put("reason", dv.reason());
      }
      out.println(Json.write(m));
    } else if (r instanceof ReplayResult.Confirmed c) {
      out.printf(Locale.ROOT, "confirmed: %s replays on %s (%s): %d transitions end in %s as recorded%n", file, source,
          where, c.transitions(), outcome(c.outcome()));
    } else {
      ReplayResult.Diverged dv = (ReplayResult.Diverged) r;
      out.printf(Locale.ROOT, "diverged: %s at transition %d on %s: %s%n", file, dv.index(), where, dv.reason());
    }
    if (engineNote != null && !json) {
      out.print(engineNote);
    }
    out.flush();
    return r instanceof ReplayResult.Confirmed ? 0 : 1;
  }

  private static String outcome(Outcome o) {
    if (o instanceof Outcome.Violated v) {
      return v.violation().kind().name();
    }
    if (o instanceof Outcome.Overlapped ov) {
      return "OVERLAP " + ov.a() + " " + ov.b();
    }
    if (o instanceof Outcome.Stopped) {
      return "STOPPED";
    }
    return "COMPLETED";
  }
}

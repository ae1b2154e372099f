package dev.interlock.cli;

import dev.interlock.gpu.cuda.CudaDevice;
import dev.interlock.impl.api.Device;
import dev.interlock.impl.engine.Engine;
import dev.interlock.impl.engine.Retention;
import dev.interlock.impl.engine.RetryPolicy;
import dev.interlock.impl.engine.RunReport;
import dev.interlock.impl.engine.RunTally;
import dev.interlock.impl.fault.Faults;
import dev.interlock.impl.fault.FaultyDevice;
import dev.interlock.impl.pipeline.InterpretedPipeline;
import dev.interlock.impl.sync.StepGate;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.Role;
import dev.interlock.model.design.Sizes;
import dev.interlock.observe.DeviceCallFile;
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

/** {@code interlock run FILE}: runs a design on the reference engine with real threads, freely scheduled. */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run a design on the reference engine (real threads and locks; the simulated device or the GPU's real VRAM): exit 0 when every job completes, 1 when any fails, 2 on bad input.")
final class RunCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The .design file.")
  Path file;

  @Mixin
  DesignOptions design = new DesignOptions();

  @Option(names = "--pipeline", paramLabel = "KIND", description = "interpreted (default) or hand-written.")
  String pipeline = "interpreted";

  @Option(names = "--durations", description = "Let cpu and kernel steps spend their 'for' durations (interpreted pipeline).")
  boolean durations;

  @Option(names = "--device", paramLabel = "KIND", description = "simulated (default) or gpu: CUDA device 0, real allocations "
      + "with the design's vram as budget (the rest held by a ballast), so running out is the driver's OOM.")
  String device = "simulated";

  @Mixin
  RunOutputs outputs = new RunOutputs();

  @Option(names = "--device-calls", paramLabel = "OUT.calls", description = "Write the device's own log of its driver calls "
      + "(allocations, frees, trims, syncs, launches; on the GPU the ballast's too) in the capture format, for "
      + "compare-capture against a capture of this run (docs/capture.md). --force lets it replace a file.")
  Path deviceCalls;

  @Mixin
  FaultOptions faultOptions = new FaultOptions();

  @Mixin
  DurationsOut durationsOut = new DurationsOut();

  @Override
  public Integer call() {
    Design d = design.load(file);
    Faults faults = faultOptions.faults();
    RetryPolicy retry = faultOptions.retry();
    var pipelines = durations && pipeline.equals("interpreted")
        ? (java.util.function.Function<Role, dev.interlock.impl.api.Pipeline>) r -> new InterpretedPipeline(r, true)
        : Pipelines.choose(pipeline, d.name());
    if (!device.equals("simulated") && !device.equals("gpu")) {
      throw new CliError("--device must be simulated or gpu, got '" + device + "'");
    }
    outputs.checkWritable();
    TraceFiles.checkWritable(deviceCalls, outputs.force);
    durationsOut.checkWritable(outputs.force);
    boolean gpu = device.equals("gpu");
    boolean logCalls = deviceCalls != null;
    FaultyDevice faulty = faults.none() ? null
        : new FaultyDevice(() -> GpuDevices.forSteps(gpu, "--device gpu", d.vram(), logCalls), faults);
    Device dev = faulty != null ? faulty : GpuDevices.forSteps(gpu, "--device gpu", d.vram(), logCalls);
    String where = dev.description();
    // the events are kept only for an output that reads them; the lines below come from the run's tally either way
    Retention retention = outputs.html != null || outputs.timelineJson != null || durationsOut.file != null
        ? Retention.ALL : Retention.COUNTS;
    RunReport r;
    String host = null;
    try (dev) {
      durationsOut.start();
      r = new Engine(dev, StepGate.FREE, 100, retry).keeping(retention).run(d, file.toString(), pipelines);
      outputs.writeTimeline(r, dev);
      if (dev instanceof CudaDevice cuda) { // before close, which hands them back
        CudaDevice.HostResources h = cuda.hostResources();
        host = String.format(Locale.ROOT, "host      %d streams and %s pinned held at the end, for %d threads served%n",
            h.streams(), Sizes.format(h.pinnedBytes()), h.threadsServed());
      }
    }
    durationsOut.write(r, outputs.force, "interlock run " + file + " (" + d.parametersLine() + ", " + where + ")");
    if (deviceCalls != null) { // after close: the ballast's frees are calls too
      TraceFiles.write(DeviceCallFile.text(dev.deviceCalls(), ProcessHandle.current().pid(),
          "interlock run " + file + " --device " + device), deviceCalls, outputs.force, "device calls");
    }
    if (outputs.html != null) {
      HtmlViews.run(outputs.html, outputs.force, "run", d, file.toString(), r);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "design    %s (%s), %s pipeline, %s%n", d.name(), file, pipeline, where);
    out.printf(Locale.ROOT, "ran       %s%n", d.parametersLine());
    FaultSummary.header(out, faults, retry);
    for (Role role : d.roles()) {
      RunTally.Counts c = r.tally().role(role.name());
      out.printf(Locale.ROOT, "jobs      %s: %d completed, %d failed, %d aborted%s%s%n", role.name(), c.completed(), c.failed(),
          c.aborted(), faults.none() ? "" : ", " + c.faulted() + " failed by injected faults",
          c.swallowed() == 0 ? "" : ", " + c.swallowed() + " ran on with an ignored OOM (SWALLOWED_OOM: results wrong)");
    }
    out.printf(Locale.ROOT, "device    peak %s used of %s vram (%s); %s live at shutdown%n", Sizes.format(r.memory().peakUsed()),
        Sizes.format(d.vram()), r.memory().peakUsed() <= d.vram() ? "within vram" : "OVER vram",
        r.leftover() == 0 ? "nothing" : r.leftover() + " buffers");
    if (host != null) {
      out.print(host);
    }
    r.deadlock().ifPresent(msg -> out.printf(Locale.ROOT, "deadlock  %s%n", msg));
    out.printf(Locale.ROOT, "events    %d transitions recorded in %.3f s%n", r.transitions(), r.seconds());
    int jobs = d.roles().stream().mapToInt(role -> role.threads() * role.jobs()).sum();
    if (!faults.none() || retry.retries() > 0) {
      out.printf(Locale.ROOT, "throughput %.1f jobs per second (%d jobs in %.3f s wall, retries included)%n", jobs / r.seconds(), jobs,
          r.seconds());
    }
    FaultSummary.print(out, r, faults, faulty, jobs, "job");
    String failures = Reports.failures(r);
    if (!failures.isEmpty()) {
      out.printf(Locale.ROOT, "failures%n%s", failures);
    }
    String swallowed = Reports.swallowed(r);
    if (!swallowed.isEmpty()) {
      out.printf(Locale.ROOT, "swallowed%n%s", swallowed);
    }
    out.flush();
    return r.failed() == 0 && r.aborted() == 0 && r.faulted() == 0 && r.swallowedJobs() == 0 ? 0 : 1;
  }
}

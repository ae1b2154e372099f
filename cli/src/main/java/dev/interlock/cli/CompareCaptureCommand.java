package dev.interlock.cli;

import dev.interlock.observe.Capture;
import dev.interlock.observe.CaptureFormat;
import dev.interlock.observe.CaptureFormatException;
import dev.interlock.observe.DeviceCallMatch;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code interlock compare-capture CALLS CAPTURE}: does a capture of an Interlock engine run show the device calls the
 * engine logged ({@code run --device-calls}), call for call.
 */
@Command(name = "compare-capture", mixinStandardHelpOptions = true,
    description = "Compare the device calls an engine run logged (run --device-calls) with a capture of that run, call for "
        + "call per thread: exit 0 MATCHES, 1 MISMATCH (at the first call that differs, with both positions), 2 on bad input.")
final class CompareCaptureCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "CALLS", description = "The engine's device calls, as run --device-calls wrote them.")
  Path callsFile;

  @Parameters(index = "1", paramLabel = "CAPTURE", description = "The captured run (interlock capture -o).")
  Path captureFile;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Capture engine = read(callsFile, err);
    Capture capture = read(captureFile, err);
    DeviceCallMatch.Result r = DeviceCallMatch.compare(engine, capture);
    PrintWriter out = spec.commandLine().getOut();
    if (r.matches()) {
      out.printf(Locale.ROOT, "MATCHES: %d device calls on %d threads, call for call (%s, %s)%n", r.calls(), r.threads(),
          captureFile, callsFile);
    } else {
      DeviceCallMatch.Mismatch m = r.mismatch().get();
      out.printf(Locale.ROOT, "MISMATCH at %s: %s%n", m.positions(callsFile.toString(), captureFile.toString()), m.message());
      out.printf(Locale.ROOT, "(%d calls agreed, on %d paired threads)%n", r.calls(), r.threads());
    }
    out.flush();
    return r.matches() ? 0 : 1;
  }

  private static Capture read(Path file, PrintWriter err) {
    try {
      Capture c = CaptureFormat.read(file);
      c.warnings().forEach(err::println);
      err.flush();
      return c;
    } catch (CaptureFormatException e) {
      throw new CliError(e.getMessage());
    }
  }
}

package dev.interlock.cli;

import dev.interlock.model.design.Design;
import dev.interlock.model.sim.DurationsFile;
import dev.interlock.observe.CaptureDurations;
import dev.interlock.observe.CaptureFormat;
import dev.interlock.observe.CaptureFormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code interlock capture -o run.capture -- PROGRAM ARGS...}: runs a program with libinterlock_capture.so loaded. */
@Command(name = "capture", mixinStandardHelpOptions = true,
    description = {"Run a program with the capture library loaded (LD_PRELOAD for pthreads, CUDA_INJECTION64_PATH for "
        + "CUPTI, NVTX_INJECTION64_PATH for NVTX) and record its locks, threads, VRAM calls, kernels and NVTX ranges "
        + "to a capture file (docs/capture.md). The exit status is the program's; 2 on bad input.",
        "The library is --lib, else INTERLOCK_CAPTURE_LIB, else libinterlock_capture.so beside the interlock jar or "
            + "in capture/target/native of the repository."})
final class CaptureCommand implements Callable<Integer> {
  static final String LIBRARY = "libinterlock_capture.so";

  @Spec
  CommandSpec spec;

  @Option(names = {"-o", "--output"}, required = true, paramLabel = "FILE", description = "The capture file to write.")
  Path output;

  @Option(names = "--force", description = "Replace an existing capture file.")
  boolean force;

  @Option(names = "--lib", paramLabel = "PATH", description = "The capture library to load.")
  Path library;

  @Option(names = "--all-driver", description = "Record every CUDA driver call by name (INTERLOCK_CAPTURE_ALL_DRIVER=1).")
  boolean allDriver;

  @Option(names = "--ignore-lib", paramLabel = "NAME",
      description = "Drop the lock, semaphore and condition records of calls made from a shared object whose path "
          + "contains NAME (such as libjvm.so); repeatable (INTERLOCK_CAPTURE_IGNORE_LIBS). Objects named through NVTX "
          + "are always recorded.")
  List<String> ignoreLibs = new ArrayList<>();

  @Option(names = "--durations-out", paramLabel = "FILE", description = "After the run, write the measured times of the NVTX "
      + "ranges named as the --design's cpu and kernel steps, as a durations file for simulate --durations (docs/simulate.md). "
      + "--force lets it replace a file.")
  Path durationsOut;

  @Option(names = "--design", paramLabel = "FILE", description = "The design whose step names --durations-out looks for.")
  Path designFile;

  @Parameters(arity = "1..*", paramLabel = "PROGRAM", description = "The program and its arguments, after --.")
  List<String> command;

  @Override
  public Integer call() {
    for (String name : ignoreLibs) {
      if (name.isEmpty() || name.contains(":")) {
        throw new CliError("--ignore-lib '" + name + "': a library name must be non-empty and contain no ':'");
      }
    }
    if ((durationsOut == null) != (designFile == null)) {
      throw new CliError("--durations-out and --design go together: the design names the steps whose ranges are timed");
    }
    Design design = designFile == null ? null : new DesignOptions().load(designFile);
    TraceFiles.checkWritable(durationsOut, force);
    Path lib = locateLibrary().toAbsolutePath();
    Path out = output.toAbsolutePath();
    try {
      TraceFiles.checkWritable(output, force);
      Files.deleteIfExists(out); // the library creates the file itself, exclusively
      Path parent = out.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
    } catch (IOException e) {
      throw new CliError(output + ": cannot write the capture: " + e.getMessage());
    }
    ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
    Map<String, String> env = pb.environment();
    String preload = env.getOrDefault("LD_PRELOAD", "").strip();
    env.put("LD_PRELOAD", preload.isEmpty() ? lib.toString() : preload + ":" + lib);
    env.put("CUDA_INJECTION64_PATH", lib.toString());
    env.put("NVTX_INJECTION64_PATH", lib.toString());
    env.put("INTERLOCK_CAPTURE_OUT", out.toString());
    if (!ignoreLibs.isEmpty()) {
      String given = env.getOrDefault("INTERLOCK_CAPTURE_IGNORE_LIBS", "").strip();
      String names = String.join(":", ignoreLibs);
      env.put("INTERLOCK_CAPTURE_IGNORE_LIBS", given.isEmpty() ? names : given + ":" + names);
    }
    if (allDriver) {
      env.put("INTERLOCK_CAPTURE_ALL_DRIVER", "1");
    }
    int status;
    try {
      Process p = pb.start();
      status = p.waitFor();
    } catch (IOException e) {
      throw new CliError(command.get(0) + ": cannot run: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliError("interrupted while " + command.get(0) + " ran");
    }
    PrintWriter err = spec.commandLine().getErr();
    if (!Files.exists(out)) {
      err.printf(Locale.ROOT, "interlock capture: %s was not written: the program did not load %s (is it a static binary?)%n",
          output, lib);
    } else {
      try {
        long records = CaptureFileTrim.trim(out);
        err.printf(Locale.ROOT, "interlock capture: %s%s; %s exited with status %d%n",
            records >= 0 ? records + " records in " : "records in ", output, command.get(0), status);
      } catch (IOException e) {
        err.printf(Locale.ROOT, "interlock capture: %s: cannot trim the capture: %s%n", output, e.getMessage());
      }
      if (design != null) {
        writeDurations(err, design);
      }
    }
    err.flush();
    return status;
  }

  /** The capture's ranges named as the design's intervals, as --durations-out; what it skipped on stderr. */
  private void writeDurations(PrintWriter err, Design design) {
    CaptureDurations.Result r;
    try {
      r = CaptureDurations.of(CaptureFormat.read(output), design);
    } catch (CaptureFormatException e) {
      throw new CliError(e.getMessage());
    }
    if (r.measured().isEmpty()) {
      throw new CliError("--durations-out " + durationsOut + ": the capture has no NVTX range named as a cpu or kernel step of "
          + designFile + (r.unmatched().isEmpty() ? "" : " (its ranges: " + String.join(", ", r.unmatched()) + ")"));
    }
    TraceFiles.write(DurationsFile.write(r.measured(), List.of("from: interlock capture of " + String.join(" ", command)
        + " (NVTX ranges named as the steps of " + designFile + "; no CPU time in a capture: cores -)")), durationsOut, force,
        "durations");
    err.printf(Locale.ROOT, "interlock capture: %d intervals timed in %s%s%n", r.measured().size(), durationsOut,
        r.unmatched().isEmpty() ? "" : "; ranges of no step of the design, not timed: " + String.join(", ", r.unmatched()));
  }

  /** --lib, INTERLOCK_CAPTURE_LIB, beside the jar, the repository's capture/target/native (from the jar or from here). */
  private Path locateLibrary() {
    if (library != null) {
      return requireFile(library, "--lib");
    }
    String env = System.getenv("INTERLOCK_CAPTURE_LIB");
    if (env != null && !env.isBlank()) {
      return requireFile(Path.of(env), "INTERLOCK_CAPTURE_LIB");
    }
    List<Path> candidates = new ArrayList<>();
    try {
      Path jar = Path.of(CaptureCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path dir = jar.getParent();
      if (dir != null) {
        candidates.add(dir.resolve(LIBRARY));
        Path root = dir.getParent() != null ? dir.getParent().getParent() : null; // cli/target/x.jar
        if (root != null) {
          candidates.add(root.resolve("capture/target/native").resolve(LIBRARY));
        }
      }
    } catch (URISyntaxException | SecurityException | IllegalArgumentException | NullPointerException e) {
      // no jar location: only the working directory is left to look in
    }
    candidates.add(Path.of("capture/target/native").resolve(LIBRARY));
    for (Path c : candidates) {
      if (Files.isRegularFile(c)) {
        return c;
      }
    }
    throw new CliError(LIBRARY + " not found (looked in " + String.join(", ", candidates.stream().map(Path::toString).toList())
        + "); build it with `mvn -pl capture verify`, or name it with --lib or INTERLOCK_CAPTURE_LIB");
  }

  private static Path requireFile(Path p, String what) {
    if (!Files.isRegularFile(p)) {
      throw new CliError(p + ": no such file (" + what + ")");
    }
    return p;
  }
}

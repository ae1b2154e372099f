package dev.interlock.model.export;

import dev.interlock.model.state.ViolationKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs Spin on an exported model (spin -a, gcc -DSAFETY, pan) and reads its verdict, so tests can compare Spin's
 * answer with the checker's on the same design. Spin stops at its first error (pan's default).
 */
public final class Spin {
  private static final Pattern ASSERTION = Pattern.compile("assertion violated ([A-Z_]+)");
  private static final Pattern STATES = Pattern.compile("(\\d+) states, stored");
  private static final Pattern ERRORS = Pattern.compile("errors: (\\d+)");

  private Spin() {}

  /**
   * What pan said: the violation it found first (empty: none), whether its search covered every state (false when it
   * was cut short by the depth limit, memory or the time limit), and the states it stored.
   */
  public record Result(Optional<ViolationKind> violation, boolean complete, long states, String output) {
    public Result {
      if (states < 0) {
        throw new IllegalArgumentException("negative state count " + states);
      }
    }
  }

  /** Why Spin cannot run here (spin or gcc missing), or empty when it can. */
  public static Optional<String> unavailable() {
    for (String tool : List.of("spin", "gcc")) {
      if (!onPath(tool)) {
        return Optional.of(tool + " is not on PATH (Debian: apt-get install -y spin gcc)");
      }
    }
    return Optional.empty();
  }

  private static boolean onPath(String tool) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(dir, tool))) {
        return true;
      }
    }
    return false;
  }

  /** Verifies {@code promela} in directory {@code dir} (its files are written there), pan limited to {@code timeout}. */
  public static Result verify(String promela, Path dir, Duration timeout) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("model.pml"), promela);
    run(dir, Duration.ofMinutes(2), "spin", "-a", "model.pml");
    run(dir, Duration.ofMinutes(2), "gcc", "-O0", "-DSAFETY", "-DVECTORSZ=4096", "-o", "pan", "pan.c");
    Optional<String> out = tryRun(dir, timeout, "./pan", "-m200000", "-w22");
    if (out.isEmpty()) {
      return new Result(Optional.empty(), false, 0, "pan ran past " + timeout.toSeconds() + " s");
    }
    return parse(out.get());
  }

  /** Reads pan's output. */
  static Result parse(String out) {
    Optional<ViolationKind> kind = Optional.empty();
    Matcher a = ASSERTION.matcher(out);
    if (a.find()) {
      kind = Optional.of(ViolationKind.valueOf(a.group(1)));
    } else if (out.matches("(?s).*pan:\\d+: invalid end state.*")) {
      kind = Optional.of(ViolationKind.DEADLOCK);
    }
    Matcher e = ERRORS.matcher(out);
    long errors = e.find() ? Long.parseLong(e.group(1)) : -1;
    Matcher s = STATES.matcher(out);
    long states = s.find() ? Long.parseLong(s.group(1)) : 0;
    boolean complete = errors >= 0 && !out.contains("max search depth too small") && !out.contains("out of memory")
        && (kind.isPresent() || !out.contains("Search not completed"));
    if (kind.isEmpty() && errors > 0) {
      throw new IllegalStateException("pan reports an error the export does not make:\n" + out);
    }
    return new Result(kind, complete, states, out);
  }

  private static String run(Path dir, Duration timeout, String... command) throws IOException, InterruptedException {
    return tryRun(dir, timeout, command).orElseThrow(() -> new IOException(String.join(" ", command) + " ran past "
        + timeout.toSeconds() + " s"));
  }

  private static Optional<String> tryRun(Path dir, Duration timeout, String... command)
      throws IOException, InterruptedException {
    Path log = dir.resolve("out.txt");
    Process p = new ProcessBuilder(new ArrayList<>(List.of(command))).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly().waitFor();
      return Optional.empty();
    }
    String out = Files.readString(log, StandardCharsets.UTF_8);
    if (p.exitValue() != 0 && !command[0].equals("./pan")) {
      throw new IOException(String.join(" ", command) + " failed (exit " + p.exitValue() + "):\n" + out);
    }
    return Optional.of(out);
  }
}

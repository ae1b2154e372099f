package dev.interlock.model.sim;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The durations file: measured times of a design's intervals, one line per interval name, written by {@code run},
 * {@code prove} and {@code capture} ({@code --durations-out}) and read by {@code simulate} and {@code compare}
 * ({@code --durations}). Read and written here only.
 *
 * <pre>
 * # comment lines start with '#'
 * # NAME       KIND    CORES  SECONDS...
 * synthesize   cpu     3.42   0.5591 0.5602 0.5577
 * ntt_msm      kernel  -      0.1377 0.1401
 * </pre>
 *
 * <p>NAME is the step's name ({@code cpu NAME}, {@code kernel NAME}); KIND is {@code cpu} or {@code kernel}; CORES is
 * the host cores the interval kept busy while it ran (CPU time over wall time), or {@code -} when not measured; then
 * every measured time in seconds, one per time the interval ran. Fields are separated by blanks.
 */
public final class DurationsFile {
  private DurationsFile() {}

  /** An interval's kind: which resource it asks of a simulated machine. */
  public enum Kind {
    CPU, KERNEL;

    /** The kind of a design's interval. */
    public static Kind of(dev.interlock.model.step.Interval i) {
      return i instanceof dev.interlock.model.step.Kernel ? KERNEL : CPU;
    }

    /** As the file and the design spell it. */
    public String text() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One interval's measurements.
   *
   * @param name    the step's name
   * @param kind    cpu or kernel
   * @param cores   host cores it kept busy while it ran, when measured
   * @param seconds each time it ran, in seconds, at least one
   */
  public record Measured(String name, Kind kind, OptionalDouble cores, List<Double> seconds) {
    public Measured {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(cores, "cores");
      seconds = List.copyOf(seconds);
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw new IllegalArgumentException("an interval's name is a word of letters, digits and '_', got '" + name + "'");
      }
      if (seconds.isEmpty()) {
        throw new IllegalArgumentException("interval '" + name + "' has no measured time");
      }
      for (double v : seconds) {
        if (!(v >= 0) || Double.isInfinite(v)) {
          throw new IllegalArgumentException("interval '" + name + "': a time is a finite number of seconds, at least 0, got " + v);
        }
      }
      if (cores.isPresent() && (!(cores.getAsDouble() >= 0) || Double.isInfinite(cores.getAsDouble()))) {
        throw new IllegalArgumentException("interval '" + name + "': cores are a finite number, at least 0, got " + cores.getAsDouble());
      }
    }

    /** The samples as a simulation's time. */
    public Timing timing() {
      return new Timing.Samples(seconds.stream().mapToDouble(Double::doubleValue).toArray());
    }
  }

  /** A durations file that cannot be read, with the place of the problem: {@code FILE:LINE: message}. */
  public static final class FormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public FormatException(String where, String reason) {
      super(where + ": " + reason);
    }
  }

  /** The file's text for {@code measured}, under the comment lines {@code header} (each without its '#'). */
  public static String write(List<Measured> measured, List<String> header) {
    StringBuilder out = new StringBuilder();
    out.append("# interlock durations: one line per interval (docs/simulate.md#durations-files)\n");
    for (String h : header) {
      out.append("# ").append(h.replace('\n', ' ')).append('\n');
    }
    out.append("# NAME KIND CORES SECONDS...\n");
    for (Measured m : measured) {
      out.append(m.name()).append(' ').append(m.kind().text()).append(' ')
          .append(m.cores().isPresent() ? String.format(Locale.ROOT, "%.3f", m.cores().getAsDouble()) : "-");
      for (double v : m.seconds()) {
        out.append(' ').append(String.format(Locale.ROOT, "%.9g", v));
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** Reads {@code file}; a problem names its line. */
  public static List<Measured> read(Path file) throws IOException, FormatException {
    return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
  }

  /** Parses a durations file's {@code text}; {@code name} is the file as errors name it. */
  public static List<Measured> parse(String name, String text) throws FormatException {
    List<Measured> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      String where = name + ":" + (i + 1);
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\\s+");
      if (f.length < 4) {
        throw new FormatException(where, "expected NAME KIND CORES SECONDS..., got '" + line + "'");
      }
      Kind kind = switch (f[1]) {
        case "cpu" -> Kind.CPU;
        case "kernel" -> Kind.KERNEL;
        default -> throw new FormatException(where, "KIND is cpu or kernel, got '" + f[1] + "'");
      };
      OptionalDouble cores = f[2].equals("-") ? OptionalDouble.empty()
          : OptionalDouble.of(number(where, "CORES is a number of cores, at least 0, or '-'", f[2]));
      List<Double> seconds = new ArrayList<>();
      for (int k = 3; k < f.length; k++) {
        seconds.add(number(where, "a time is a number of seconds, at least 0", f[k]));
      }
      if (!seen.add(f[0])) {
        throw new FormatException(where, "interval '" + f[0] + "' is listed twice");
      }
      try {
        out.add(new Measured(f[0], kind, cores, seconds));
      } catch (IllegalArgumentException e) {
        throw new FormatException(where, e.getMessage());
      }
    }
    if (out.isEmpty()) {
      throw new FormatException(name, "no interval in the file (lines are NAME KIND CORES SECONDS...)");
    }
    return out;
  }

  private static double number(String where, String rule, String text) throws FormatException {
    try {
      double v = Double.parseDouble(text);
      if (Double.isNaN(v) || Double.isInfinite(v) || v < 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw new FormatException(where, rule + ", got '" + text + "'");
    }
  }
}

package dev.interlock.cli;

import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.design.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The design file's overrides shared by commands: --vram, --threads, --jobs, --permits. Only {@code check} takes
 * {@code any} as a count ({@link #load(Path, boolean)}); every other command rejects it.
 */
final class DesignOptions {
  @Option(names = "--vram", paramLabel = "SIZE", description = "Device memory, e.g. 16GiB (default: the design's).")
  String vram;

  @Option(names = "--threads", paramLabel = "ROLE=N", description = "Threads of a role (repeatable); check takes ROLE=any too.")
  Map<String, String> threads = new LinkedHashMap<>();

  @Option(names = "--jobs", paramLabel = "ROLE=N", description = "Jobs per thread of a role (repeatable); check takes ROLE=any (loops forever) too.")
  Map<String, String> jobs = new LinkedHashMap<>();

  /** The count that stands for every number: {@code --threads ROLE=any}, {@code --jobs ROLE=any}. */
  static final String ANY = "any";

  @Option(names = "--permits", paramLabel = "SEMAPHORE=N", description = "Initial permits of a semaphore (repeatable).")
  Map<String, Integer> permits = new LinkedHashMap<>();

  /** Parses the file and applies the overrides; every problem becomes a one-line error; {@code any} is one. */
  Design load(Path file) {
    return load(file, false);
  }

  /** As {@link #load(Path)} for a design's text already read from {@code file} ({@code DesignParser.readText}). */
  Design load(Path file, String text) {
    try {
      return apply(DesignParser.parse(String.valueOf(file), text), false);
    } catch (DesignException e) {
      throw new CliError(e.getMessage());
    }
  }

  /**
   * Parses the file and applies the overrides. With {@code anyAllowed}, {@code --jobs ROLE=any} makes the role loop
   * ({@link Role#FOREVER}) and a role of {@code --threads ROLE=any} gets 1 thread: {@link #anyRoles} names them.
   */
  Design load(Path file, boolean anyAllowed) {
    Design d;
    try {
      d = DesignParser.parse(file);
    } catch (DesignException e) {
      throw new CliError(e.getMessage());
    }
    return apply(d, anyAllowed);
  }

  /** The roles given as {@code --threads ROLE=any}, in the order given. */
  List<String> anyRoles() {
    return threads.entrySet().stream().filter(e -> ANY.equals(e.getValue())).map(Map.Entry::getKey).toList();
  }

  Design apply(Design d) {
    return apply(d, false);
  }

  private Design apply(Design d, boolean anyAllowed) {
    if (vram != null) {
      Sizes.Parsed p = Sizes.parse(vram);
      d = d.withVram(p.bytes().orElseThrow(() -> new CliError("--vram: " + p.error())));
    }
    for (Map.Entry<String, String> e : threads.entrySet()) {
      d = d.withThreads(e.getKey(), count(d, "--threads", e, anyAllowed, 1));
    }
    for (Map.Entry<String, String> e : jobs.entrySet()) {
      d = d.withJobs(e.getKey(), count(d, "--jobs", e, anyAllowed, Role.FOREVER));
    }
    for (Map.Entry<String, Integer> e : permits.entrySet()) {
      if (d.semaphoreIndex(e.getKey()) < 0) {
        throw new CliError("--permits: no semaphore '" + e.getKey() + "' in design " + d.name());
      }
      if (e.getValue() < 0) {
        throw new CliError("--permits " + e.getKey() + ": needs a count of 0 or more, got " + e.getValue());
      }
      d = d.withPermits(e.getKey(), e.getValue());
    }
    return d;
  }

  /** The count an override gives role {@code e.getKey()}: a number of at least 1, or {@code any} as {@code anyValue}. */
  private static int count(Design d, String option, Map.Entry<String, String> e, boolean anyAllowed, int anyValue) {
    if (d.role(e.getKey()).isEmpty()) {
      throw new CliError(option + ": no role '" + e.getKey() + "' in design " + d.name() + " (roles: "
          + String.join(", ", d.roles().stream().map(r -> r.name()).toList()) + ")");
    }
    if (ANY.equals(e.getValue())) {
      if (!anyAllowed) {
        throw new CliError(option + " " + e.getKey() + "=any: only check takes any; give a number");
      }
      return anyValue;
    }
    int n;
    try {
      n = Integer.parseInt(e.getValue());
    } catch (NumberFormatException x) {
      throw new CliError(option + " " + e.getKey() + ": needs a number" + (anyAllowed ? " or any" : "") + ", got '"
          + e.getValue() + "'");
    }
    if (n < 1) {
      throw new CliError(option + " " + e.getKey() + ": needs at least 1, got " + n);
    }
    return n;
  }
}
